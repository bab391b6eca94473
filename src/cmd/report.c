/* report: `oomlab report [RUN_ID...] [-o FILE] [--svg CHART]` — the runs as
 * one self-contained HTML page (inline SVG and CSS, no script, a CSP that
 * forbids every load): memory over time, per-step peaks, the loss, the OOM
 * with its diagnosis and first fixes, the ledger row, the config, the log
 * around the OOM; several runs overlaid with the one-variable difference
 * named. Gathering is here; charts are render/svg, escaping render/html. */
#include "cmd/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ledger_io.h"
#include "lib/ledger.h"
#include "lib/memcsv.h"
#include "lib/plan.h"
#include "lib/steps.h"
#include "lib/torchsteps.h"
#include "lib/units.h"
#include "lib/verdict.h"
#include "render/html.h"
#include "render/svg.h"
#include "sys/fsutil.h"
#include "sys/logscan.h"

#define MAX_RUNS 8
#define GIB 1073741824.0
#define EXCERPT_BEFORE 12
#define EXCERPT_AFTER 6
#define EXCERPT_LINE_MAX 400
#define CONFIG_MAX (1u << 20)
#define MEMCSV_MAX ((size_t)2 << 30)
#define STEPS_MAX ((size_t)512 << 20)

static const char usage_text[] =
    "usage: oomlab report [RUN_ID...] [--dir DIR] [-o FILE] [--svg memory|steps|loss]\n"
    "\n"
    "One self-contained HTML file (inline SVG, no network, no script) with the runs'\n"
    "device memory over time, per-step peaks, loss, the OOM with its diagnosis and\n"
    "first fixes, ledger row, config and the log around the OOM. Several ids: the\n"
    "runs overlaid and side by side, with what changed between them. No id: the\n"
    "last run in the ledger.\n"
    "\n"
    "  --dir DIR      where runs.csv, logs/ and configs/ are (default .)\n"
    "  -o, --output FILE  where to write (default DIR/reports/ID[+ID...].html; '-' stdout)\n"
    "  --svg CHART    write one chart of the first run as a standalone SVG instead\n"
    "                 (memory, steps or loss; default output DIR/reports/ID-CHART.svg)\n"
    "\n"
    "Prints the path written. Exit 0 written, 2 usage or unknown run, 3 cannot write.\n";

struct run {
    const struct ledger_row *row;
    const char *id;
    struct memcsv mem;
    struct steps_series log_steps;
    struct torchsteps ts;
    bool have_ts;
    struct oom_report rep;
    bool have_rep;
    const struct oom_event *oom; /* the root-cause event; NULL none */
    char *config;
    size_t config_len;
    char excerpt[EXCERPT_BEFORE + EXCERPT_AFTER + 1][EXCERPT_LINE_MAX];
    long excerpt_first; /* line number of excerpt[0]; 0 none */
    size_t excerpt_n;
    /* series for the charts, in display units */
    double *mx[MEMCSV_MAX_GPUS], *my[MEMCSV_MAX_GPUS], *mt[MEMCSV_MAX_GPUS];
    size_t mn[MEMCSV_MAX_GPUS], mtn[MEMCSV_MAX_GPUS];
    double *sx, *sres, *salloc, *lx, *ly;
    size_t sn, salloc_n, sres_n, ln;
    char log_path[4096];
};

/* ---- gathering ---- */

/* The first pass keeps the last RING lines, so the excerpt of an OOM near
 * the end of the log (the usual place) needs no second read. */
#define RING 64

struct pass_ctx {
    struct steps_series *series;
    long n;
    char ring[RING][EXCERPT_LINE_MAX];
};

static void copy_line(char *dst, const char *line, size_t len)
{
    size_t n = len < EXCERPT_LINE_MAX - 1 ? len : EXCERPT_LINE_MAX - 1;
    while (n && line[n - 1] == '\r') n--;
    memcpy(dst, line, n);
    dst[n] = '\0';
}

static int line_first_pass(const char *line, size_t len, void *ctx)
{
    struct pass_ctx *p = ctx;
    struct steps_point pt;
    if (steps_parse_line(line, len, &pt)) steps_series_add(p->series, &pt);
    copy_line(p->ring[p->n++ % RING], line, len);
    return 0;
}

struct excerpt_ctx {
    struct run *r;
    long n, from, to;
};

static int line_to_excerpt(const char *line, size_t len, void *ctx)
{
    struct excerpt_ctx *e = ctx;
    e->n++;
    if (e->n < e->from) return 0;
    if (e->n > e->to) return 1;
    copy_line(e->r->excerpt[e->r->excerpt_n++], line, len);
    return 0;
}

static void read_log(const char *dir, struct run *r)
{
    struct oomlab_err err = {{0}};
    static struct pass_ctx p;
    snprintf(r->log_path, sizeof r->log_path, "%s/logs/%s.log", dir, r->id);
    steps_series_init(&r->log_steps);
    p.series = &r->log_steps;
    p.n = 0;
    if (logscan_path_lines(r->log_path, &r->rep, line_first_pass, &p, &err) < 0) return;
    r->have_rep = true;
    if (r->rep.primary >= 0 && r->rep.events[r->rep.primary].gpu_oom) r->oom = &r->rep.events[r->rep.primary];
    if (!r->oom) return;
    long from = r->oom->line > EXCERPT_BEFORE ? r->oom->line - EXCERPT_BEFORE : 1;
    long to = r->oom->line + EXCERPT_AFTER < p.n ? r->oom->line + EXCERPT_AFTER : p.n;
    if (from > p.n - RING) { /* all in the ring */
        for (long no = from; no <= to; no++) snprintf(r->excerpt[r->excerpt_n++], EXCERPT_LINE_MAX, "%s", p.ring[(no - 1) % RING]);
        r->excerpt_first = r->excerpt_n ? from : 0;
        return;
    }
    struct excerpt_ctx e = {.r = r, .from = from, .to = to};
    struct oom_report again;
    if (logscan_path_lines(r->log_path, &again, line_to_excerpt, &e, &err) == 0) oom_report_release(&again);
    r->excerpt_first = r->excerpt_n ? e.from : 0;
}

static void read_side_files(const char *dir, struct run *r)
{
    char path[4096], *text;
    size_t len;
    bool missing;
    struct oomlab_err err = {{0}};
    snprintf(path, sizeof path, "%s/logs/%s_mem.csv", dir, r->id);
    memset(&r->mem, 0, sizeof r->mem);
    r->mem.not_sampled = 1;
    if (fsutil_read(path, MEMCSV_MAX, &text, &len, &missing, &err) == 0) {
        memcsv_parse(&r->mem, text, len, &err);
        free(text);
    }
    snprintf(path, sizeof path, "%s/logs/%s_steps.csv", dir, r->id);
    if (fsutil_read(path, STEPS_MAX, &text, &len, &missing, &err) == 0) {
        r->have_ts = torchsteps_parse(&r->ts, text, len, &err) == 0 && r->ts.rows > 0;
        if (!r->have_ts && r->ts.rows == 0 && err.msg[0] == '\0') torchsteps_release(&r->ts);
        free(text);
    }
    snprintf(path, sizeof path, "%s/configs/%s.yaml", dir, r->id);
    if (fsutil_read(path, CONFIG_MAX, &r->config, &r->config_len, &missing, &err) < 0) r->config = NULL;
}

static double *dup_series(size_t n)
{
    return n ? calloc(n, sizeof(double)) : NULL;
}

/* Chart series in GiB / steps / seconds; unknown figures are left out. */
static int build_series(struct run *r)
{
    for (size_t g = 0; g < r->mem.n_gpus; g++) {
        const struct memcsv_gpu *gp = &r->mem.gpus[g];
        r->mx[g] = dup_series(gp->n), r->my[g] = dup_series(gp->n), r->mt[g] = dup_series(2 * gp->n);
        if (gp->n && (!r->mx[g] || !r->my[g] || !r->mt[g])) return -1;
        for (size_t i = 0; i < gp->n; i++) {
            const struct memcsv_sample *s = &gp->samples[i];
            if (s->used >= 0) r->mx[g][r->mn[g]] = s->elapsed_s, r->my[g][r->mn[g]++] = (double)s->used / GIB;
            if (s->tree >= 0) r->mt[g][r->mtn[g]] = s->elapsed_s, r->mt[g][gp->n + r->mtn[g]++] = (double)s->tree / GIB;
        }
    }
    const struct steps_series *ss = r->have_ts ? &r->ts.series : &r->log_steps;
    r->sx = dup_series(ss->n), r->sres = dup_series(2 * ss->n), r->salloc = dup_series(2 * ss->n);
    r->lx = dup_series(r->log_steps.n), r->ly = dup_series(r->log_steps.n);
    if ((ss->n && (!r->sx || !r->sres || !r->salloc)) || (r->log_steps.n && (!r->lx || !r->ly))) return -1;
    for (size_t i = 0; i < ss->n; i++) {
        const struct steps_point *p = &ss->points[i];
        if (p->step < 0) continue;
        if (p->peak_reserved >= 0) r->sres[r->sres_n] = (double)p->step, r->sres[ss->n + r->sres_n++] = (double)p->peak_reserved / GIB;
        if (p->peak_alloc >= 0) r->salloc[r->salloc_n] = (double)p->step, r->salloc[ss->n + r->salloc_n++] = (double)p->peak_alloc / GIB;
    }
    r->sn = ss->n;
    for (size_t i = 0; i < r->log_steps.n; i++) {
        const struct steps_point *p = &r->log_steps.points[i];
        if (p->step < 0 || !(p->fields & STEPS_LOSS) || !isfinite(p->loss)) continue;
        r->lx[r->ln] = (double)p->step, r->ly[r->ln++] = p->loss;
    }
    return 0;
}

static void run_release(struct run *r)
{
    memcsv_release(&r->mem);
    for (size_t g = 0; g < MEMCSV_MAX_GPUS; g++) free(r->mx[g]), free(r->my[g]), free(r->mt[g]);
    free(r->sx), free(r->sres), free(r->salloc), free(r->lx), free(r->ly);
    steps_series_release(&r->log_steps);
    if (r->have_ts) torchsteps_release(&r->ts);
    if (r->have_rep) oom_report_release(&r->rep);
    free(r->config);
}

/* ---- charts ---- */

static double capacity_gib(const struct run *r)
{
    for (size_t g = 0; g < r->mem.n_gpus; g++)
        if (r->mem.gpus[g].total > 0) return (double)r->mem.gpus[g].total / GIB;
    double cap = ledger_num(r->row, LEDGER_CAPACITY_GB);
    if (isfinite(cap) && cap > 0) return cap;
    if (r->oom && r->oom->bytes.capacity > 0) return (double)r->oom->bytes.capacity / GIB;
    return NAN;
}

static void capacity_lines(struct svg_chart *c, double cap, char *l1, char *l2, size_t size)
{
    if (!isfinite(cap)) return;
    snprintf(l1, size, "capacity %.2f GiB", cap);
    snprintf(l2, size, "85%% edge %.2f GiB", cap * 0.85);
    c->hlines[c->n_hlines++] = (struct svg_line){cap, l1, false};
    c->hlines[c->n_hlines++] = (struct svg_line){cap * 0.85, l2, true};
}

static const char *oom_label(const struct run *r, char *buf, size_t size)
{
    snprintf(buf, size, "OOM (%s)", oom_stage_name(r->oom->stage));
    return buf;
}

static double last_step(const struct run *r)
{
    if (r->oom && r->oom->step >= 0) return (double)r->oom->step;
    if (r->sres_n) return r->sres[r->sres_n - 1];
    if (r->ln) return r->lx[r->ln - 1];
    return NAN;
}

/* The second half of a two-part array (x then y); NULL stays NULL (an empty
 * series has no array at all). */
static const double *half(const double *p, size_t n)
{
    return p ? p + n : NULL;
}

enum chart_kind { CHART_MEMORY, CHART_STEPS, CHART_LOSS };
static const char *const chart_names[] = {"memory", "steps", "loss"};

struct labels {
    char names[SVG_MAX_SERIES][80];
    char l1[64], l2[64], oom[64];
};

static void chart_one(struct svg_chart *c, struct labels *lb, const struct run *r, enum chart_kind kind)
{
    *c = (struct svg_chart){.id = chart_names[kind]};
    bool oom_marker = r->oom != NULL;
    if (kind == CHART_MEMORY) {
        c->title = "Device memory over time (NVML)", c->x_label = "seconds since start", c->y_label = "GiB";
        c->y_from_zero = true;
        for (size_t g = 0; g < r->mem.n_gpus && c->n_series + 2 <= SVG_MAX_SERIES; g++) {
            snprintf(lb->names[c->n_series], sizeof lb->names[0], "GPU %d used", r->mem.gpus[g].index);
            c->series[c->n_series] = (struct svg_series){lb->names[c->n_series], r->mx[g], r->my[g], r->mn[g], (int)g * 2, false};
            c->n_series++;
            if (!r->mtn[g]) continue;
            snprintf(lb->names[c->n_series], sizeof lb->names[0], "GPU %d this run", r->mem.gpus[g].index);
            c->series[c->n_series] = (struct svg_series){lb->names[c->n_series], r->mt[g], half(r->mt[g], r->mem.gpus[g].n),
                                                         r->mtn[g], (int)g * 2, true};
            c->n_series++;
        }
        capacity_lines(c, capacity_gib(r), lb->l1, lb->l2, sizeof lb->l1);
        double end = r->mem.n_gpus && r->mn[0] ? r->mx[0][r->mn[0] - 1] : NAN;
        if (oom_marker && isfinite(end)) c->markers[c->n_markers++] = (struct svg_line){end, oom_label(r, lb->oom, sizeof lb->oom), true};
        return;
    }
    double at = last_step(r);
    if (oom_marker && isfinite(at)) c->markers[c->n_markers++] = (struct svg_line){at, oom_label(r, lb->oom, sizeof lb->oom), true};
    if (kind == CHART_STEPS) {
        c->title = r->have_ts ? "Per-step peaks (torch hook)" : "Per-step peaks (step lines)";
        c->x_label = "step", c->y_label = "GiB", c->y_from_zero = true;
        c->series[c->n_series++] = (struct svg_series){"peak reserved", r->sres, half(r->sres, r->sn), r->sres_n, 1, false};
        c->series[c->n_series++] = (struct svg_series){"peak allocated", r->salloc, half(r->salloc, r->sn), r->salloc_n, 0, false};
        capacity_lines(c, capacity_gib(r), lb->l1, lb->l2, sizeof lb->l1);
        return;
    }
    c->title = "Training loss", c->x_label = "step", c->y_label = "loss";
    c->series[c->n_series++] = (struct svg_series){"loss", r->lx, r->ly, r->ln, 2, false};
}

/* Several runs on one chart: kind CHART_MEMORY overlays GPU 0 used. */
static void chart_overlay(struct svg_chart *c, struct labels *lb, struct run *runs, size_t n, enum chart_kind kind)
{
    *c = (struct svg_chart){.id = chart_names[kind], .y_from_zero = kind != CHART_LOSS};
    c->title = kind == CHART_MEMORY ? "Device memory over time, GPU of each run (NVML)"
             : kind == CHART_STEPS  ? "Per-step peak reserved, by run"
                                    : "Training loss, by run";
    c->x_label = kind == CHART_MEMORY ? "seconds since start" : "step";
    c->y_label = kind == CHART_LOSS ? "loss" : "GiB";
    for (size_t i = 0; i < n && c->n_series < SVG_MAX_SERIES; i++) {
        struct run *r = &runs[i];
        struct svg_series s = {lb->names[i], NULL, NULL, 0, (int)i, false};
        snprintf(lb->names[i], sizeof lb->names[0], "%s", r->id);
        if (kind == CHART_MEMORY && r->mem.n_gpus) s.x = r->mx[0], s.y = r->my[0], s.n = r->mn[0];
        else if (kind == CHART_STEPS) s.x = r->sres, s.y = half(r->sres, r->sn), s.n = r->sres_n;
        else if (kind == CHART_LOSS) s.x = r->lx, s.y = r->ly, s.n = r->ln;
        c->series[c->n_series++] = s;
    }
    if (kind != CHART_LOSS) capacity_lines(c, capacity_gib(&runs[0]), lb->l1, lb->l2, sizeof lb->l1);
}

/* ---- HTML ---- */

static void kv(FILE *f, const char *key, const char *value)
{
    fputs("<tr><th>", f);
    html_escapes(f, key);
    fputs("</th><td>", f);
    html_escapes(f, value && *value ? value : "-");
    fputs("</td></tr>\n", f);
}

static void bytes_kv(FILE *f, const char *key, int64_t v)
{
    char buf[32];
    kv(f, key, v >= 0 ? units_format_bytes(v, buf, sizeof buf) : "unknown");
}

static void oom_section(FILE *f, const struct run *r)
{
    if (!r->oom) {
        fputs("<p class=\"ok\">No GPU out-of-memory error in this run's log.</p>\n", f);
        return;
    }
    const struct oom_event *e = r->oom;
    char buf[64];
    fputs("<div class=\"oom\"><h3>Out of memory</h3><table class=\"kv\">\n", f);
    kv(f, "kind", e->kind);
    kv(f, "stage", oom_stage_name(e->stage));
    snprintf(buf, sizeof buf, "%ld", e->step);
    kv(f, "step", e->step >= 0 ? buf : "unknown");
    snprintf(buf, sizeof buf, "%ld", e->line);
    kv(f, "log line", buf);
    bytes_kv(f, "requested", e->bytes.requested);
    bytes_kv(f, "free", e->bytes.free);
    bytes_kv(f, "capacity", e->bytes.capacity);
    bytes_kv(f, "allocated by PyTorch", e->bytes.allocated);
    bytes_kv(f, "reserved but unallocated", e->bytes.reserved_unallocated);
    kv(f, "message", e->text);
    fputs("</table>\n", f);
    struct verdicts v;
    struct plan plan;
    verdict_compute(&r->rep, &v);
    plan_build(&r->rep, &v, NULL, &plan);
    fputs("<h4>First fixes (oomlab diagnose)</h4><ol class=\"plan\">\n", f);
    for (size_t i = 0; i < plan.n && i < 3; i++) {
        fputs("<li><b>", f);
        html_escapes(f, plan.items[i].action);
        fputs("</b><br><span class=\"why\">", f);
        html_escapes(f, plan.items[i].why);
        fputs("</span></li>\n", f);
    }
    fputs("</ol></div>\n", f);
}

static void excerpt_section(FILE *f, const struct run *r)
{
    if (!r->excerpt_n) return;
    fputs("<h3>Log around the OOM</h3><pre class=\"log\">", f);
    for (size_t i = 0; i < r->excerpt_n; i++) {
        long no = r->excerpt_first + (long)i;
        fprintf(f, "<span class=\"%s\">%6ld  ", r->oom && no == r->oom->line ? "hit" : "ln", no);
        html_escapes(f, r->excerpt[i]);
        fputs("</span>\n", f);
    }
    fputs("</pre>\n", f);
}

static void ledger_table(FILE *f, struct run *runs, size_t n)
{
    fputs("<h2>Ledger</h2><table class=\"ledger\"><tr><th>column</th>", f);
    for (size_t i = 0; i < n; i++) {
        fputs("<th>", f);
        html_escapes(f, runs[i].id);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int c = 0; c < LEDGER_NCOLS; c++) {
        if (c == LEDGER_RUN_ID) continue;
        bool any = c < LEDGER_JOB_ID; /* the rank columns only for runs that have them */
        for (size_t i = 0; i < n; i++) any |= runs[i].row->cell[c][0] != '\0';
        if (!any) continue;
        bool differs = false;
        for (size_t i = 1; i < n; i++) differs |= strcmp(runs[i].row->cell[c], runs[0].row->cell[c]) != 0;
        fprintf(f, "<tr%s><th>", differs ? " class=\"diff\"" : "");
        html_escapes(f, ledger_col_name((enum ledger_col)c));
        fputs("</th>", f);
        for (size_t i = 0; i < n; i++) {
            fputs("<td>", f);
            html_escapes(f, runs[i].row->cell[c][0] ? runs[i].row->cell[c] : "-");
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static bool lower_bound(const struct ledger_row *row)
{
    return ledger_flag(row, LEDGER_PEAK_LOWER_BOUND) == 1;
}

static void fmt_peak(char *buf, size_t size, const struct ledger_row *row)
{
    double p = ledger_peak_gb(row);
    if (isfinite(p)) snprintf(buf, size, "%s%.2f GiB", lower_bound(row) ? "&#8805; " : "", p);
    else snprintf(buf, size, "unknown");
}

/* Halving the batch while raising accumulation to keep the effective
 * batch is the guide's one move, not two variables. */
static bool one_move(const struct ledger_row *a, const struct ledger_row *b, const enum ledger_col *cols, size_t k)
{
    if (k != 2) return false;
    bool batch = false, accum = false;
    for (size_t i = 0; i < k; i++) batch |= cols[i] == LEDGER_DEVICE_BATCH_SIZE, accum |= cols[i] == LEDGER_GRAD_ACCUM;
    double ea = ledger_num(a, LEDGER_EFFECTIVE_BATCH), eb = ledger_num(b, LEDGER_EFFECTIVE_BATCH);
    return batch && accum && isfinite(ea) && ea == eb;
}

/* "run001 -> run002: device_batch_size 8 -> 4, grad_accum 1 -> 2; peak ...". */
static void changes(FILE *f, struct run *runs, size_t n)
{
    fputs("<h2>What changed</h2><ul class=\"changes\">\n", f);
    for (size_t i = 1; i < n; i++) {
        const struct ledger_row *a = runs[i - 1].row, *b = runs[i].row;
        enum ledger_col cols[8];
        size_t k = ledger_changed(a, b, cols, 8);
        fputs("<li><b>", f);
        html_escapes(f, runs[i - 1].id);
        fputs(" &#8594; ", f);
        html_escapes(f, runs[i].id);
        fputs("</b>: ", f);
        if (k == 0) fputs("no config column changed", f);
        for (size_t j = 0; j < k; j++) {
            fputs(j ? ", " : "", f);
            html_escapes(f, ledger_col_name(cols[j]));
            fputc(' ', f);
            html_escapes(f, a->cell[cols[j]][0] ? a->cell[cols[j]] : "-");
            fputs(" &#8594; ", f);
            html_escapes(f, b->cell[cols[j]][0] ? b->cell[cols[j]] : "-");
        }
        char pa[32], pb[32];
        fmt_peak(pa, sizeof pa, a);
        fmt_peak(pb, sizeof pb, b);
        double da = ledger_peak_gb(a), db = ledger_peak_gb(b);
        fprintf(f, "; peak %s &#8594; %s", pa, pb); /* our own text: no escaping needed */
        if (isfinite(da) && isfinite(db) && !lower_bound(a) && !lower_bound(b)) fprintf(f, " (%+.2f GiB)", db - da);
        else if (isfinite(da) && isfinite(db) && lower_bound(a) && !lower_bound(b))
            fprintf(f, " (at least %.2f GiB less)", da - db);
        fputs("; OOM ", f);
        html_escapes(f, a->cell[LEDGER_OOM]);
        fputs(" &#8594; ", f);
        html_escapes(f, b->cell[LEDGER_OOM]);
        fputs("; loss ", f);
        html_escapes(f, a->cell[LEDGER_LOSS_TREND]);
        fputs(" &#8594; ", f);
        html_escapes(f, b->cell[LEDGER_LOSS_TREND]);
        if (one_move(a, b, cols, k)) fputs(" <span class=\"ok\">(one move: batch traded for accumulation, effective batch kept)</span>", f);
        else if (k > 1) fputs(" <span class=\"warn\">(more than one variable changed)</span>", f);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

static const char page_style[] =
    "body{font:14px/1.4 sans-serif;margin:16px auto;max-width:1000px;padding:0 12px;color:#222}"
    "h1{font-size:20px}h2{font-size:17px;border-bottom:1px solid #ccc;margin-top:28px}h3{font-size:15px}"
    "table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;"
    "vertical-align:top}th{background:#f5f5f5}tr.diff td{background:#fff4d6;font-weight:bold}"
    ".kv td{word-break:break-word}.oom{border-left:4px solid #c00;padding-left:10px}.ok{color:#2a7a2a}"
    ".warn{color:#b37400}.why{color:#555}pre{background:#f7f7f7;padding:6px;overflow-x:auto;"
    "white-space:pre-wrap;word-break:break-all;font-size:12px}pre .hit{background:#ffd6d6;font-weight:bold}"
    ".note{color:#666;font-style:italic}"
    "@media print{body{max-width:none}.chart{max-width:100%;page-break-inside:avoid}}\n";

static void head(FILE *f, struct run *runs, size_t n)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "img-src data:; base-uri 'none'; form-action 'none'\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>oomlab report: ",
          f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", f);
        html_escapes(f, runs[i].id);
    }
    fputs("</title>\n<style>", f);
    fputs(page_style, f);
    svg_styles(f);
    fputs("</style></head><body>\n", f);
}

static int chart_html(FILE *f, const struct svg_chart *c, const char *empty_note)
{
    bool any = false;
    for (size_t i = 0; i < c->n_series; i++) any |= c->series[i].n > 0;
    if (!any) {
        fprintf(f, "<p class=\"note\" data-chart=\"%s\">", c->id);
        html_escapes(f, empty_note);
        fputs("</p>\n", f);
        return 0;
    }
    return svg_chart_render(f, c, false);
}

static const char *const empty_notes[] = {
    "Device memory was not sampled for this run (no NVML when it ran).",
    "No per-step peaks: the log has no step memory lines and the run had no --torch hook.",
    "No loss in this log.",
};

static int run_section(FILE *f, struct run *r)
{
    fputs("<section class=\"run\" data-run=\"", f);
    html_escapes(f, r->id);
    fputs("\"><h2>Run ", f);
    html_escapes(f, r->id);
    fputs("</h2>\n<p><code>", f);
    html_escapes(f, r->row->cell[LEDGER_COMMAND]);
    fputs("</code></p>\n", f);
    oom_section(f, r);
    static struct svg_chart c;
    static struct labels lb;
    for (int k = CHART_MEMORY; k <= CHART_LOSS; k++) {
        chart_one(&c, &lb, r, (enum chart_kind)k);
        if (chart_html(f, &c, empty_notes[k]) < 0) return -1;
    }
    excerpt_section(f, r);
    if (r->config) {
        fputs("<h3>Config (configs/", f);
        html_escapes(f, r->id);
        fputs(".yaml)</h3><pre class=\"config\">", f);
        html_escape(f, r->config, r->config_len);
        fputs("</pre>\n", f);
    }
    fputs("</section>\n", f);
    return 0;
}

static int render_html(FILE *f, struct run *runs, size_t n)
{
    head(f, runs, n);
    fputs("<h1>oomlab report</h1>\n", f);
    if (n > 1) {
        changes(f, runs, n);
        static struct svg_chart c;
        static struct labels lb;
        for (int k = CHART_MEMORY; k <= CHART_LOSS; k++) {
            chart_overlay(&c, &lb, runs, n, (enum chart_kind)k);
            if (chart_html(f, &c, empty_notes[k]) < 0) return -1;
        }
    }
    ledger_table(f, runs, n);
    for (size_t i = 0; i < n; i++)
        if (run_section(f, &runs[i]) < 0) return -1;
    fprintf(f, "<p class=\"note\">Made by oomlab %s.</p>\n</body></html>\n", OOMLAB_VERSION);
    return 0;
}

/* ---- command ---- */

struct opts {
    const char *dir, *out, *svg;
    const char *ids[MAX_RUNS];
    size_t n_ids;
};

static const struct option long_opts[] = {{"dir", required_argument, NULL, 'd'}, {"output", required_argument, NULL, 'o'},
                                       {"svg", required_argument, NULL, 's'}, {"help", no_argument, NULL, 'h'}, {0}};

const struct option *cmd_report_options(void) { return long_opts; }

static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){.dir = "."};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":ho:d:", long_opts, NULL)) != -1) {
        switch (c) {
        case 'd': o->dir = optarg; break;
        case 'o': o->out = optarg; break;
        case 's': o->svg = optarg; break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        case ':': return cmd_usage_error("report", "%s needs a value", argv[optind - 1]);
        default: return cmd_usage_error("report", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (o->svg) {
        bool known = false;
        for (size_t i = 0; i < 3; i++) known |= !strcmp(o->svg, chart_names[i]);
        if (!known) return cmd_usage_error("report", "--svg %s: want memory, steps or loss", o->svg);
    }
    for (; optind < argc; optind++) {
        if (o->n_ids == MAX_RUNS) return cmd_usage_error("report", "at most %d runs in one report", MAX_RUNS);
        o->ids[o->n_ids++] = argv[optind];
    }
    return -1;
}

static int default_out(const struct opts *o, struct run *runs, size_t n, char *buf, size_t size, struct oomlab_err *err)
{
    char dir[4096];
    if (fsutil_join(dir, sizeof dir, o->dir, "reports", err) < 0 || fsutil_mkdir_p(dir, err) < 0) return -1;
    int k = snprintf(buf, size, "%s/", dir);
    for (size_t i = 0; i < n && k > 0 && (size_t)k < size; i++)
        k += snprintf(buf + k, size - (size_t)k, "%s%s", i ? "+" : "", runs[i].id);
    if (k > 0 && (size_t)k < size)
        k += snprintf(buf + k, size - (size_t)k, o->svg ? "-%s.svg" : ".html", o->svg ? o->svg : "");
    if (k < 0 || (size_t)k >= size) return oomlab_err_set(err, "report path too long");
    return 0;
}

static int write_out(const char *path, const char *data, size_t len, struct oomlab_err *err)
{
    if (!strcmp(path, "-")) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
            return oomlab_err_set(err, "cannot write to stdout: %s", strerror(errno));
        return 0;
    }
    return fsutil_write_atomic(path, data, len, err);
}

static int load_runs(const struct opts *o, struct ledger *lg, struct run *runs, size_t *n)
{
    const char *last = lg->n ? lg->rows[lg->n - 1].cell[LEDGER_RUN_ID] : NULL;
    size_t want = o->n_ids ? o->n_ids : 1;
    for (size_t i = 0; i < want; i++) {
        const char *id = o->n_ids ? o->ids[i] : last;
        const struct ledger_row *row = id ? ledger_find(lg, id) : NULL;
        if (!row) {
            fprintf(stderr, "oomlab report: no run '%s' in %s/runs.csv ('oomlab table' lists them)\n", id ? id : "",
                    o->dir);
            return -1;
        }
        runs[i] = (struct run){.row = row, .id = row->cell[LEDGER_RUN_ID]};
        *n = i + 1;
        read_log(o->dir, &runs[i]);
        read_side_files(o->dir, &runs[i]);
        if (build_series(&runs[i]) < 0) {
            fprintf(stderr, "oomlab report: out of memory\n");
            return -1;
        }
    }
    return 0;
}

int cmd_report(int argc, char **argv)
{
    struct opts o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) return rc;
    struct ledger lg;
    char lpath[4096];
    struct oomlab_err err = {{0}};
    if (ledger_io_load(o.dir, &lg, lpath, sizeof lpath, &err) < 0) return cmd_fail("report", &err, EXIT_USAGE);
    if (lg.n == 0) {
        ledger_release(&lg);
        return cmd_fail("report", &(struct oomlab_err){"the ledger has no runs yet"}, EXIT_USAGE);
    }
    static struct run runs[MAX_RUNS];
    size_t n = 0;
    char *data = NULL;
    size_t len = 0;
    rc = load_runs(&o, &lg, runs, &n) < 0 ? EXIT_USAGE : EXIT_OK;
    FILE *f = rc == EXIT_OK ? open_memstream(&data, &len) : NULL;
    if (rc == EXIT_OK && !f) rc = cmd_fail("report", &(struct oomlab_err){"out of memory"}, EXIT_ERROR);
    if (f) {
        static struct svg_chart c;
        static struct labels lb;
        int r = 0;
        if (o.svg) {
            enum chart_kind k = !strcmp(o.svg, "memory") ? CHART_MEMORY : !strcmp(o.svg, "steps") ? CHART_STEPS : CHART_LOSS;
            chart_one(&c, &lb, &runs[0], k);
            r = svg_chart_render(f, &c, true);
        } else {
            r = render_html(f, runs, n);
        }
        if (fclose(f) != 0 || r < 0) rc = cmd_fail("report", &(struct oomlab_err){"out of memory"}, EXIT_ERROR);
    }
    char out[4096];
    if (rc == EXIT_OK) {
        if (o.out) snprintf(out, sizeof out, "%s", o.out);
        if ((!o.out && default_out(&o, runs, n, out, sizeof out, &err) < 0) || write_out(out, data, len, &err) < 0)
            rc = cmd_fail("report", &err, EXIT_ERROR);
        else if (strcmp(out, "-")) printf("%s\n", out);
    }
    free(data);
    for (size_t i = 0; i < n; i++) run_release(&runs[i]);
    ledger_release(&lg);
    return rc;
}
