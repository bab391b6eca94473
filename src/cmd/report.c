/* report: `oomlab report [RUN_ID...] [-o FILE] [--svg CHART]` — the runs as
 * one self-contained HTML page (inline SVG and CSS, no script, a CSP that
 * forbids every load): memory over time, per-step peaks, the loss, the OOM
 * with its diagnosis and first fixes, the ledger row, the config, the log
 * around the OOM; several runs overlaid with the one-variable difference
 * named. Gathering is here; charts are render/svg, escaping render/html. */
#include "cmd/cmd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/ledger_io.h"
#include "lib/ledger.h"
#include "lib/logidx.h"
#include "lib/reduce.h"
#include "lib/memcsv.h"
#include "lib/plan.h"
#include "lib/runcfg.h"
#include "lib/steps.h"
#include "lib/torchsteps.h"
#include "lib/units.h"
#include "lib/verdict.h"
#include "render/html.h"
#include "render/svg.h"
#include "sys/chunks.h"
#include "sys/fsutil.h"
#include "sys/ledgerfile.h"
#include "sys/logidx_file.h"
#include "sys/logscan.h"
#include "sys/torchhook.h"

#define MAX_RUNS 8
#define GIB 1073741824.0
#define EXCERPT_BEFORE 12
#define EXCERPT_AFTER 6
/* PyTorch's current OOM message is one line of about 600 bytes; a longer
 * line (a progress bar, a dict dump) is cut with its length said. */
#define EXCERPT_LINE_MAX 2048
#define CONFIG_MAX (1u << 20)

static const char usage_head[] =
    "usage: oomlab report [RUN_ID...] [--dir DIR] [-o FILE] [--svg memory|steps|loss]\n"
    "\n"
    "One self-contained HTML file (inline SVG, no network, no script) with the runs'\n"
    "device memory over time, per-step peaks, loss, the OOM with its diagnosis and\n"
    "first fixes, ledger row, config and the log around the OOM. Several ids (up to\n"
    "8): the runs overlaid and side by side, with what changed between them. No id:\n"
    "the last run in the ledger.\n"
    "\n";
static const char usage_tail[] =
    "\n"
    "Prints the path written. Exit 0 written, 2 usage or unknown run, 3 cannot write.\n";

/* A chart's points: a reduction of the data (lib/reduce), in display units. */
struct pts {
    double *x, *y;
    size_t n;
    uint64_t n_data; /* points in the data */
};

#define N_STEP_MARKS 6 /* step labels on the memory chart */

enum time_source { TIME_NONE, TIME_INDEX, TIME_INTERPOLATED };

struct run {
    const struct ledger_row *row;
    const char *id;
    char stem[160]; /* its files' name in logs/: the id, or a job's ID_rankN (run_stem) */
    char rank_note[256]; /* "rank 1 of 2" for a job; "" otherwise */
    struct memcsv mem;
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
    /* the log's step lines, reduced as they are read: against the step... */
    struct reduce_stream step_res, step_alloc, step_loss;
    /* ...and against time on the memory chart's axis (seconds of the samples) */
    struct reduce_stream time_res, time_alloc;
    struct { double t; long step; bool set; } marks[N_STEP_MARKS];
    enum time_source time_src;
    double oom_t; /* the OOM line's time on that axis; NaN unknown */
    char time_note[200];
    /* series for the charts */
    struct pts mem_used[MEMCSV_MAX_GPUS], mem_tree[MEMCSV_MAX_GPUS];
    struct pts sres, salloc, loss, tres, talloc;
    bool steps_from_hook;
    long loss_nonfinite; /* step lines whose loss is nan or inf */
    struct steps_mem_trend trend; /* the log's per-step memory trend, as diagnose plans with it */
    char log_path[4096];
    char mem_note[700]; /* why the memory chart is empty, when it is */
    char log_note[700]; /* why the log could not be read; "" when it was */
};

/* ---- gathering ---- */

/* The first pass keeps the last RING lines, so the excerpt of an OOM near
 * the end of the log (the usual place) needs no second read. */
#define RING 64

struct pass_ctx {
    struct run *r;
    struct steps_series series; /* for the memory trend only: released after the pass */
    long n, last_step;
    uint64_t offset;         /* of the next line in the log */
    bool offsets_bad;        /* a line over LOGSCAN_LINE_MAX: offsets unknown from there */
    struct logidx_file *idx; /* TIME_INDEX */
    double shift_s;          /* index time -> memory-sample time */
    double s_per_byte;       /* TIME_INTERPOLATED */
    double duration;         /* of the memory samples, for the step marks */
    char ring[RING][EXCERPT_LINE_MAX];
    uint64_t ring_offset[RING];
};

/* A line of the log as a C string for the excerpt. A NUL byte (a log whose
 * blocks were zero-filled by a crash, a binary dump) becomes U+2400, the
 * control picture html_escape gives every other control character, so the
 * bytes after it are not lost to the string's end. */
static void copy_line(char *dst, const char *line, size_t len)
{
    static const char nul_picture[] = "\xE2\x90\x80"; /* U+2400 SYMBOL FOR NULL */
    const size_t pic = sizeof nul_picture - 1;
    while (len && line[len - 1] == '\r') len--;
    size_t cap = EXCERPT_LINE_MAX - 64, out = 0, i = 0, expanded = len;
    for (size_t k = 0; k < len; k++) expanded += line[k] == '\0' ? pic - 1 : 0;
    if (expanded < EXCERPT_LINE_MAX) cap = EXCERPT_LINE_MAX - 1;
    for (; i < len; i++) {
        size_t need = line[i] == '\0' ? pic : 1;
        if (out + need > cap) break;
        if (line[i] == '\0') memcpy(dst + out, nul_picture, pic);
        else dst[out] = line[i];
        out += need;
    }
    if (i == len) {
        dst[out] = '\0';
        return;
    }
    while (i && out && ((unsigned char)line[i] & 0xC0) == 0x80) i--, out--; /* not inside a UTF-8 character */
    snprintf(dst + out, EXCERPT_LINE_MAX - out, " ... (line cut: %zu of its %zu bytes shown)", i, len);
}

/* Seconds on the memory chart's axis at which the log's byte at offset
 * arrived; NaN unknown. Offsets come in increasing order (the index is
 * read in step with the log). */
static double time_at(struct pass_ctx *p, uint64_t offset)
{
    if (p->offsets_bad) return NAN;
    if (p->r->time_src == TIME_INTERPOLATED) return (double)offset * p->s_per_byte;
    if (p->r->time_src != TIME_INDEX) return NAN;
    int64_t ms = logidx_file_ms(p->idx, offset);
    return ms < 0 ? NAN : (double)ms / 1000.0 + p->shift_s;
}

static void mark_step(struct pass_ctx *p, double t, long step)
{
    if (!(p->duration > 0) || !isfinite(t) || step < 0) return;
    double at = t / p->duration * N_STEP_MARKS;
    size_t slot = at <= 0 ? 0 : at >= N_STEP_MARKS - 1 ? N_STEP_MARKS - 1 : (size_t)at;
    if (!p->r->marks[slot].set) p->r->marks[slot].t = t, p->r->marks[slot].step = step, p->r->marks[slot].set = true;
}

static void step_point(struct pass_ctx *p, const struct steps_point *pt, uint64_t offset)
{
    struct run *r = p->r;
    long step = pt->step >= 0 ? pt->step : p->last_step; /* a memory line after its step line */
    if (pt->step >= 0) p->last_step = pt->step;
    double gib_res = pt->peak_reserved >= 0 ? (double)pt->peak_reserved / GIB : NAN;
    double gib_alloc = pt->peak_alloc >= 0 ? (double)pt->peak_alloc / GIB : NAN;
    if (step >= 0) {
        if (isfinite(gib_res)) reduce_stream_add(&r->step_res, (double)step, gib_res);
        if (isfinite(gib_alloc)) reduce_stream_add(&r->step_alloc, (double)step, gib_alloc);
        if (pt->step >= 0 && (pt->fields & STEPS_LOSS) && isfinite(pt->loss))
            reduce_stream_add(&r->step_loss, (double)step, pt->loss);
        else if (pt->step >= 0 && (pt->fields & STEPS_LOSS))
            r->loss_nonfinite++;
    }
    if (r->time_src == TIME_NONE || (!isfinite(gib_res) && !isfinite(gib_alloc) && pt->step < 0)) return;
    double t = time_at(p, offset);
    if (!isfinite(t)) return;
    if (isfinite(gib_res)) reduce_stream_add(&r->time_res, t, gib_res);
    if (isfinite(gib_alloc)) reduce_stream_add(&r->time_alloc, t, gib_alloc);
    if (pt->step >= 0) mark_step(p, t, pt->step);
}

static int line_first_pass(const char *line, size_t len, void *ctx)
{
    struct pass_ctx *p = ctx;
    struct steps_point pt;
    uint64_t offset = p->offset;
    p->offset += len + 1;
    if (len >= LOGSCAN_LINE_MAX) p->offsets_bad = true; /* delivered as its tail */
    if (steps_parse_line(line, len, &pt)) {
        step_point(p, &pt, offset);
        /* out of memory: the trend reads less; the line still counts below */
        (void)steps_series_add(&p->series, &pt);
    }
    p->ring_offset[p->n % RING] = offset;
    copy_line(p->ring[p->n++ % RING], line, len);
    return 0;
}

struct excerpt_ctx {
    struct run *r;
    long n, from, to, oom_line;
    uint64_t offset, oom_offset;
};

static int line_to_excerpt(const char *line, size_t len, void *ctx)
{
    struct excerpt_ctx *e = ctx;
    e->n++;
    if (e->n == e->oom_line) e->oom_offset = e->offset;
    e->offset += len + 1;
    if (e->n < e->from) return 0;
    if (e->n > e->to) return 1;
    copy_line(e->r->excerpt[e->r->excerpt_n++], line, len);
    return 0;
}

/* Before the log is read: where its lines' times come from. */
static void choose_time_source(struct run *r, struct pass_ctx *p, struct logidx_file *idx, uint64_t log_size)
{
    double end = 0;
    for (size_t g = 0; g < r->mem.n_gpus; g++)
        if (r->mem.gpus[g].used.kept && r->mem.gpus[g].used.x_hi > end) end = r->mem.gpus[g].used.x_hi;
    p->duration = end;
    if (!(end > 0)) return; /* no memory chart to place them on */
    char path[4096];
    if (logidx_file_path(r->log_path, path, sizeof path) && logidx_file_open(idx, path)) {
        r->time_src = TIME_INDEX;
        p->idx = idx;
        if (idx->cur.start_ms >= 0 && r->mem.start_ms >= 0) p->shift_s = (double)(idx->cur.start_ms - r->mem.start_ms) / 1000.0;
        snprintf(r->time_note, sizeof r->time_note, "step lines at the time they reached the log (logs/%s.idx)", r->stem);
    } else if (log_size > 0) {
        r->time_src = TIME_INTERPOLATED;
        p->s_per_byte = end / (double)log_size;
        snprintf(r->time_note, sizeof r->time_note,
                 "no line-time index (logs/%s.idx): step lines placed by interpolation over the log's bytes", r->stem);
    }
}

/* After the pass: the offsets hold only when the log was read byte for byte. */
static void check_time_source(struct run *r, struct pass_ctx *p, const struct logscan_info *info, uint64_t log_size)
{
    if (r->time_src == TIME_NONE) return;
    bool plain = info->encoding && !strcmp(info->encoding, "utf-8") && info->bytes == log_size && !p->offsets_bad;
    if (!plain) {
        reduce_stream_release(&r->time_res), reduce_stream_release(&r->time_alloc);
        reduce_stream_init(&r->time_res), reduce_stream_init(&r->time_alloc);
        memset(r->marks, 0, sizeof r->marks);
        r->time_src = TIME_NONE;
        snprintf(r->time_note, sizeof r->time_note, "step lines not placed in time: the log was not read byte for byte "
                                                    "(decoded, or a line over 4 MiB)");
        return;
    }
    struct logidx_entry last;
    if (r->time_src == TIME_INDEX) {
        logidx_file_drain(p->idx);
        if (p->idx->cur.bad) {
            snprintf(r->time_note, sizeof r->time_note, "logs/%s.idx is damaged: step lines from there on not placed", r->stem);
        } else if (logidx_cursor_last(&p->idx->cur, &last) && last.offset != log_size) {
            size_t k = strlen(r->time_note);
            snprintf(r->time_note + k, sizeof r->time_note - k, "; it covers %llu of the log's %llu bytes",
                     (unsigned long long)last.offset, (unsigned long long)log_size);
        }
    }
}

/* The OOM line's time: the index read again from its start (one lookup). */
static void oom_time(struct run *r, const struct pass_ctx *p, uint64_t offset)
{
    r->oom_t = NAN;
    if (r->time_src == TIME_INTERPOLATED) r->oom_t = (double)offset * p->s_per_byte;
    if (r->time_src != TIME_INDEX) return;
    char path[4096];
    struct logidx_file idx;
    if (!logidx_file_path(r->log_path, path, sizeof path) || !logidx_file_open(&idx, path)) return;
    int64_t ms = logidx_file_ms(&idx, offset);
    if (ms >= 0) r->oom_t = (double)ms / 1000.0 + p->shift_s;
    logidx_file_close(&idx);
}

static void read_excerpt(struct run *r, struct pass_ctx *p)
{
    struct oomlab_err err = {{0}};
    long from = r->oom->line > EXCERPT_BEFORE ? r->oom->line - EXCERPT_BEFORE : 1;
    long to = r->oom->line + EXCERPT_AFTER < p->n ? r->oom->line + EXCERPT_AFTER : p->n;
    if (from > p->n - RING) { /* all in the ring */
        for (long no = from; no <= to; no++) snprintf(r->excerpt[r->excerpt_n++], EXCERPT_LINE_MAX, "%s", p->ring[(no - 1) % RING]);
        r->excerpt_first = r->excerpt_n ? from : 0;
        if (r->oom->line >= 1 && r->oom->line <= p->n) oom_time(r, p, p->ring_offset[(r->oom->line - 1) % RING]);
        return;
    }
    struct excerpt_ctx e = {.r = r, .from = from, .to = to, .oom_line = r->oom->line};
    struct oom_report again;
    if (logscan_path_lines(r->log_path, &again, line_to_excerpt, &e, &err) == 0) oom_report_release(&again);
    r->excerpt_first = r->excerpt_n ? e.from : 0;
    if (e.n >= e.oom_line) oom_time(r, p, e.oom_offset);
}

static void read_log(const char *dir, struct run *r)
{
    struct oomlab_err err = {{0}};
    static struct pass_ctx p;
    static struct logidx_file idx;
    struct stat st;
    snprintf(r->log_path, sizeof r->log_path, "%s/logs/%s.log", dir, r->stem);
    uint64_t log_size = stat(r->log_path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    p = (struct pass_ctx){.r = r, .last_step = -1};
    steps_series_init(&p.series);
    idx.f = NULL;
    r->oom_t = NAN;
    choose_time_source(r, &p, &idx, log_size);
    struct logscan_opts lo = {.fn = line_first_pass, .ctx = &p};
    struct logscan_info info = {0};
    int rc = logscan_path_opts(r->log_path, &r->rep, &lo, &info, &err);
    steps_memory_trend_of(&p.series, &r->trend);
    steps_series_release(&p.series);
    if (rc == 0) check_time_source(r, &p, &info, log_size);
    logidx_file_close(&idx);
    if (rc < 0) { /* not "no OOM in this log": nothing of it was read */
        snprintf(r->log_note, sizeof r->log_note, "The log could not be read (%s): the OOM, step and loss "
                 "sections have nothing from it.", err.msg);
        fprintf(stderr, "oomlab report: %s: cannot read its log (%s): nothing from it is shown\n", r->id, err.msg);
        return;
    }
    r->have_rep = true;
    if (r->rep.primary >= 0 && r->rep.events[r->rep.primary].gpu_oom) r->oom = &r->rep.events[r->rep.primary];
    if (r->oom) read_excerpt(r, &p);
}

static int feed_memcsv(const char *data, size_t len, void *ctx, struct oomlab_err *err)
{
    return memcsv_feed(ctx, data, len, err);
}

static unsigned long long rows_of(const struct memcsv *m)
{
    unsigned long long n = 0;
    for (size_t g = 0; g < m->n_gpus; g++) n += m->gpus[g].rows;
    return n;
}

/* The full stop a sentence ending in msg needs: none after one that ends
 * in its own ('... no NVIDIA driver on this machine?.' read as a typo). */
static const char *full_stop(const char *msg)
{
    size_t n = strlen(msg);
    return n && strchr(".?!", msg[n - 1]) ? "" : ".";
}

/* Why a run's memory chart is empty: the memory log's own reason, or what
 * is wrong with the file (a corrupt one is not "not sampled"). */
static void mem_note(struct run *r, int read_rc, bool missing, const struct oomlab_err *err)
{
    const struct memcsv *m = &r->mem;
    char *b = r->mem_note;
    size_t size = sizeof r->mem_note;
    if (read_rc < 0 && missing)
        snprintf(b, size, "Device memory was not sampled for this run (no logs/%s_mem.csv).", r->stem);
    else if (read_rc < 0)
        snprintf(b, size, "No memory chart: %s%s", err->msg, full_stop(err->msg));
    else if (m->said_not_sampled)
        snprintf(b, size, "Device memory was not sampled for this run%s%s%s", m->not_sampled_why[0] ? ": " : "",
                 m->not_sampled_why, full_stop(m->not_sampled_why));
    else if (!m->in_rows)
        snprintf(b, size, "No memory chart: logs/%s_mem.csv is not a memory log oomlab wrote (no CSV header).", r->stem);
    else if (m->bad_rows)
        snprintf(b, size, "No memory chart: logs/%s_mem.csv has %zu malformed rows and no readable sample.", r->stem,
                 m->bad_rows);
    else if (rows_of(m))
        snprintf(b, size, "No memory chart: the %llu rows of logs/%s_mem.csv hold no figure (NVML could not read "
                          "the GPU: the file's '# gpu' lines say why).", rows_of(m), r->stem);
    else
        snprintf(b, size, "No memory chart: logs/%s_mem.csv holds no sample.", r->stem);
}

static void read_side_files(const char *dir, struct run *r)
{
    char path[4096];
    bool missing = false;
    struct oomlab_err err = {{0}};
    snprintf(path, sizeof path, "%s/logs/%s_mem.csv", dir, r->stem);
    memcsv_init(&r->mem);
    int mem_rc = chunks_read(path, feed_memcsv, &r->mem, &missing, &err);
    if (mem_rc == 0) memcsv_finish(&r->mem);
    else if (!r->mem.failed) memcsv_release(&r->mem), memcsv_init(&r->mem), r->mem.not_sampled = 1;
    mem_note(r, mem_rc, missing, &err);
    snprintf(path, sizeof path, "%s/logs/%s_steps.csv", dir, r->stem);
    if (torchhook_read_file(path, &r->ts, &err) == 0) {
        r->have_ts = r->ts.rows > 0;
        if (!r->have_ts) torchsteps_release(&r->ts);
    }
    snprintf(path, sizeof path, "%s/configs/%s.yaml", dir, r->id);
    if (fsutil_read(path, CONFIG_MAX, &r->config, &r->config_len, &missing, &err) < 0) r->config = NULL;
}

/* A reduction as chart points, y scaled (bytes -> GiB). */
static int pts_of(struct pts *p, const struct reduce_stream *s, double scale)
{
    *p = (struct pts){.n_data = s->kept};
    if (!s->kept) return 0;
    p->x = malloc(REDUCE_STREAM_MAX_POINTS * sizeof *p->x), p->y = malloc(REDUCE_STREAM_MAX_POINTS * sizeof *p->y);
    if (!p->x || !p->y) return -1;
    p->n = reduce_stream_points(s, p->x, p->y);
    for (size_t i = 0; i < p->n; i++) p->y[i] *= scale;
    return 0;
}

static void pts_release(struct pts *p)
{
    free(p->x), free(p->y);
    *p = (struct pts){0};
}

/* The hook's per-step peaks, when there are any, replace the log's. */
static int hook_steps(struct run *r)
{
    struct reduce_stream res, alloc;
    reduce_stream_init(&res), reduce_stream_init(&alloc);
    for (size_t i = 0; i < r->ts.series.n; i++) {
        const struct steps_point *p = &r->ts.series.points[i];
        if (p->step < 0) continue;
        if (p->peak_reserved >= 0) reduce_stream_add(&res, (double)p->step, (double)p->peak_reserved / GIB);
        if (p->peak_alloc >= 0) reduce_stream_add(&alloc, (double)p->step, (double)p->peak_alloc / GIB);
    }
    int rc = pts_of(&r->sres, &res, 1) | pts_of(&r->salloc, &alloc, 1);
    reduce_stream_release(&res), reduce_stream_release(&alloc);
    r->steps_from_hook = true;
    return rc;
}

/* Chart series in GiB / steps / seconds; unknown figures are left out. */
static int build_series(struct run *r)
{
    int rc = 0;
    for (size_t g = 0; g < r->mem.n_gpus; g++)
        rc |= pts_of(&r->mem_used[g], &r->mem.gpus[g].used, 1 / GIB) | pts_of(&r->mem_tree[g], &r->mem.gpus[g].tree, 1 / GIB);
    if (r->have_ts) rc |= hook_steps(r);
    else rc |= pts_of(&r->sres, &r->step_res, 1) | pts_of(&r->salloc, &r->step_alloc, 1);
    rc |= pts_of(&r->loss, &r->step_loss, 1) | pts_of(&r->tres, &r->time_res, 1) | pts_of(&r->talloc, &r->time_alloc, 1);
    bool lost = r->mem.failed || r->step_res.failed || r->step_alloc.failed || r->step_loss.failed;
    return rc < 0 || lost ? -1 : 0;
}

static void run_release(struct run *r)
{
    for (size_t g = 0; g < MEMCSV_MAX_GPUS; g++) pts_release(&r->mem_used[g]), pts_release(&r->mem_tree[g]);
    memcsv_release(&r->mem);
    pts_release(&r->sres), pts_release(&r->salloc), pts_release(&r->loss), pts_release(&r->tres), pts_release(&r->talloc);
    struct reduce_stream *st[] = {&r->step_res, &r->step_alloc, &r->step_loss, &r->time_res, &r->time_alloc};
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) reduce_stream_release(st[i]);
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
    char a[32], b[32]; /* a hand-edited 1e308 must not overflow the label (%.3g past 1e9) */
    snprintf(l1, size, "capacity %s GiB", ledger_figure_text(cap, 2, a, sizeof a));
    double edge = cap * LEDGER_EDGE_PCT / 100;
    snprintf(l2, size, "%d%% edge %s GiB", LEDGER_EDGE_PCT, ledger_figure_text(edge, 2, b, sizeof b));
    c->hlines[c->n_hlines++] = (struct svg_line){cap, l1, false, NULL};
    c->hlines[c->n_hlines++] = (struct svg_line){edge, l2, true, NULL};
}

static const char *oom_label(const struct run *r, char *buf, size_t size)
{
    snprintf(buf, size, "OOM (%s)", oom_stage_name(r->oom->stage));
    return buf;
}

static double last_step(const struct run *r)
{
    if (r->oom && r->oom->step >= 0) return (double)r->oom->step;
    if (r->sres.n) return r->sres.x[r->sres.n - 1];
    if (r->loss.n) return r->loss.x[r->loss.n - 1];
    return NAN;
}

enum chart_kind { CHART_MEMORY, CHART_STEPS, CHART_LOSS };
static const char *const chart_names[] = {"memory", "steps", "loss"};

struct labels {
    char names[SVG_MAX_SERIES][80];
    char l1[64], l2[64], oom[64];
    char marks[N_STEP_MARKS][32];
    char id[32];
};

static struct svg_series series_of(const char *name, const struct pts *p, int color, bool dashed)
{
    return (struct svg_series){.name = name, .x = p->x, .y = p->y, .n = p->n, .n_data = p->n_data, .color = color,
                               .dashed = dashed};
}

/* The step lines on the memory chart: their peaks as dots, a few labelled
 * steps, the OOM at its line's time. */
static void memory_steps(struct svg_chart *c, struct labels *lb, const struct run *r)
{
    if (r->time_src == TIME_NONE) {
        c->note = r->time_note[0] ? r->time_note : NULL;
        return;
    }
    c->note = r->time_note;
    const struct pts *p[2] = {&r->tres, &r->talloc};
    const char *names[2] = {"peak reserved (step lines)", "peak allocated (step lines)"};
    for (int i = 0; i < 2 && c->n_series < SVG_MAX_SERIES; i++) {
        if (!p[i]->n) continue;
        c->series[c->n_series] = series_of(names[i], p[i], 4 + i, false);
        c->series[c->n_series++].dots = true;
    }
    for (size_t i = 0; i < N_STEP_MARKS && c->n_markers < SVG_MAX_MARKERS - 1; i++) {
        if (!r->marks[i].set) continue;
        snprintf(lb->marks[i], sizeof lb->marks[0], "step %ld", r->marks[i].step);
        c->markers[c->n_markers++] = (struct svg_line){.value = r->marks[i].t, .label = lb->marks[i], .kind = "step"};
    }
}

static void chart_memory(struct svg_chart *c, struct labels *lb, const struct run *r)
{
    c->title = "Device memory over time (NVML)", c->x_label = "seconds since start", c->y_label = "GiB";
    c->y_from_zero = true;
    for (size_t g = 0; g < r->mem.n_gpus && c->n_series + 2 <= SVG_MAX_SERIES; g++) {
        snprintf(lb->names[c->n_series], sizeof lb->names[0], "GPU %d used", r->mem.gpus[g].index);
        c->series[c->n_series] = series_of(lb->names[c->n_series], &r->mem_used[g], (int)g * 2, false);
        c->n_series++;
        if (!r->mem_tree[g].n) continue;
        snprintf(lb->names[c->n_series], sizeof lb->names[0], "GPU %d this run", r->mem.gpus[g].index);
        c->series[c->n_series] = series_of(lb->names[c->n_series], &r->mem_tree[g], (int)g * 2, true);
        c->n_series++;
    }
    capacity_lines(c, capacity_gib(r), lb->l1, lb->l2, sizeof lb->l1);
    memory_steps(c, lb, r);
    double end = r->mem.n_gpus && r->mem_used[0].n ? r->mem_used[0].x[r->mem_used[0].n - 1] : NAN;
    double at = isfinite(r->oom_t) ? r->oom_t : end; /* without a time: the last sample */
    if (r->oom && isfinite(at))
        c->markers[c->n_markers++] = (struct svg_line){at, oom_label(r, lb->oom, sizeof lb->oom), true, NULL};
}

static void chart_one(struct svg_chart *c, struct labels *lb, const struct run *r, enum chart_kind kind)
{
    *c = (struct svg_chart){.id = chart_names[kind]};
    if (kind == CHART_MEMORY) {
        chart_memory(c, lb, r);
        return;
    }
    double at = last_step(r);
    if (r->oom && isfinite(at)) c->markers[c->n_markers++] = (struct svg_line){at, oom_label(r, lb->oom, sizeof lb->oom), true, NULL};
    if (kind == CHART_STEPS) {
        c->title = r->steps_from_hook ? "Per-step peaks (torch hook)" : "Per-step peaks (step lines)";
        c->x_label = "step", c->y_label = "GiB", c->y_from_zero = true, c->x_whole = true;
        c->series[c->n_series++] = series_of("peak reserved", &r->sres, 1, false);
        c->series[c->n_series++] = series_of("peak allocated", &r->salloc, 0, false);
        capacity_lines(c, capacity_gib(r), lb->l1, lb->l2, sizeof lb->l1);
        return;
    }
    c->title = "Training loss", c->x_label = "step", c->y_label = "loss", c->x_whole = true;
    c->series[c->n_series++] = series_of("loss", &r->loss, 2, false);
}

/* Several runs on one chart: kind CHART_MEMORY overlays GPU 0 used. */
static void chart_overlay(struct svg_chart *c, struct labels *lb, struct run *runs, size_t n, enum chart_kind kind)
{
    *c = (struct svg_chart){.id = chart_names[kind], .y_from_zero = kind != CHART_LOSS};
    c->title = kind == CHART_MEMORY ? "Device memory over time, GPU of each run (NVML)"
             : kind == CHART_STEPS  ? "Per-step peak reserved, by run"
                                    : "Training loss, by run";
    c->x_label = kind == CHART_MEMORY ? "seconds since start" : "step";
    c->x_whole = kind != CHART_MEMORY;
    c->y_label = kind == CHART_LOSS ? "loss" : "GiB";
    static const struct pts none;
    for (size_t i = 0; i < n && c->n_series < SVG_MAX_SERIES; i++) {
        struct run *r = &runs[i];
        snprintf(lb->names[i], sizeof lb->names[0], "%s", r->id);
        const struct pts *p = kind == CHART_MEMORY ? (r->mem.n_gpus ? &r->mem_used[0] : &none)
                            : kind == CHART_STEPS  ? &r->sres
                                                   : &r->loss;
        c->series[c->n_series++] = series_of(lb->names[i], p, (int)i, false);
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
    if (r->log_note[0]) {
        fputs("<p class=\"note\">", f);
        html_escapes(f, r->log_note);
        fputs("</p>\n", f);
        return;
    }
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
    struct runcfg cfg;
    struct oomlab_err err = {{0}};
    runcfg_init(&cfg);
    /* the run's own values, as `oomlab diagnose ID` reads them from configs/ID.yaml */
    bool have_cfg = r->config && runcfg_parse(&cfg, r->config, r->config_len, "config", &err) == 0;
    verdict_compute(&r->rep, &v);
    plan_build_trend(&r->rep, &v, have_cfg ? &cfg : NULL, &r->trend, &plan);
    runcfg_release(&cfg);
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
        /* when it started and which oomlab recorded it differ for every
         * two runs: highlighted, they only hide the cells that say something */
        bool differs = false, bookkeeping = c == LEDGER_STARTED_AT || c == LEDGER_OOMLAB_PID;
        for (size_t i = 1; i < n && !bookkeeping; i++) differs |= strcmp(runs[i].row->cell[c], runs[0].row->cell[c]) != 0;
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
    char fig[32];
    if (isfinite(p))
        snprintf(buf, size, "%s%s GiB", lower_bound(row) ? "&#8805; " : "", ledger_figure_text(p, 2, fig, sizeof fig));
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
        const char *ca = a->cell[LEDGER_COMMAND], *cb = b->cell[LEDGER_COMMAND];
        size_t cmd_size = strlen(ca) + strlen(cb) + LEDGER_CHANGE_SLACK; /* whole, however long */
        char *cmd = k == 0 ? malloc(cmd_size) : NULL;
        if (k == 0 && cmd && ledger_command_change(ca, cb, cmd, cmd_size)) {
            fputs("command ", f);
            html_escapes(f, cmd);
        } else if (k == 0 && !cmd) {
            fputs("command (out of memory to show how)", f);
        } else if (k == 0) {
            fputs("no config column changed", f);
        }
        for (size_t j = 0; j < k; j++) {
            fputs(j ? ", " : "", f);
            html_escapes(f, ledger_col_name(cols[j]));
            fputc(' ', f);
            html_escapes(f, a->cell[cols[j]][0] ? a->cell[cols[j]] : "-");
            fputs(" &#8594; ", f);
            html_escapes(f, b->cell[cols[j]][0] ? b->cell[cols[j]] : "-");
        }
        free(cmd);
        char pa[32], pb[32];
        fmt_peak(pa, sizeof pa, a);
        fmt_peak(pb, sizeof pb, b);
        double da = ledger_peak_gb(a), db = ledger_peak_gb(b);
        fprintf(f, "; peak %s &#8594; %s", pa, pb); /* our own text: no escaping needed */
        char d[32];
        if (isfinite(da) && isfinite(db) && !lower_bound(a) && !lower_bound(b))
            fprintf(f, " (%s%s GiB)", db >= da ? "+" : "", ledger_figure_text(db - da, 2, d, sizeof d));
        else if (isfinite(da) && isfinite(db) && lower_bound(a) && !lower_bound(b))
            fprintf(f, " (at least %s GiB less)", ledger_figure_text(da - db, 2, d, sizeof d));
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
    ".kv td{word-break:break-word}.ledger td{overflow-wrap:anywhere}.oom{border-left:4px solid #c00;padding-left:10px}.ok{color:#2a7a2a}"
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

static bool chart_has_points(const struct svg_chart *c)
{
    for (size_t i = 0; i < c->n_series; i++)
        if (c->series[i].n > 0) return true;
    return false;
}

static int chart_html(FILE *f, const struct svg_chart *c, const char *empty_note)
{
    if (!chart_has_points(c)) {
        fprintf(f, "<p class=\"note\" data-chart=\"%s\">", c->id);
        html_escapes(f, empty_note);
        fputs("</p>\n", f);
        return 0;
    }
    return svg_chart_render(f, c, false);
}

static const char *const empty_notes[] = {
    NULL, /* memory: the run's own mem_note */
    "No per-step peaks: the log has no step memory lines and the run had no --torch hook.",
    "No loss in this log.",
};
/* The same for the overlay of several runs. */
static const char *const overlay_empty_notes[] = {
    "Device memory was not sampled for these runs.",
    "No per-step peaks: the logs have no step memory lines and the runs had no --torch hook.",
    "No loss in these logs.",
};

/* Why a run's chart of kind k is empty, when it is. */
static const char *chart_note(const struct run *r, enum chart_kind k)
{
    if (k == CHART_MEMORY) return r->mem_note;
    if (r->log_note[0]) return "Nothing from the log: it could not be read.";
    /* a loss logged as nan or inf at every step has nothing to plot,
     * yet the log has a loss (the ledger's loss_trend says nan) */
    if (k == CHART_LOSS && r->loss_nonfinite > 0) return "The loss in this log is nan or inf at every step.";
    return empty_notes[k];
}

/* Why the overlay of kind k is empty, when it is: a log that could not
 * be read has nothing to say about step lines or the loss (the overlay
 * said "the logs have no step memory lines" of logs it never read). */
static const char *overlay_note(const struct run *runs, size_t n, enum chart_kind k)
{
    size_t unread = 0, nonfinite = 0;
    for (size_t i = 0; i < n; i++) {
        unread += runs[i].log_note[0] != 0;
        nonfinite += !runs[i].log_note[0] && runs[i].loss_nonfinite > 0;
    }
    if (k == CHART_MEMORY) return overlay_empty_notes[k];
    if (unread == n) return "Nothing from the logs: none of them could be read.";
    if (unread)
        return k == CHART_STEPS ? "No per-step peaks in the logs that could be read (the others: see each run below)."
                                : "No loss in the logs that could be read (the others: see each run below).";
    if (k == CHART_LOSS && nonfinite == n) return "The loss in these logs is nan or inf at every step.";
    return overlay_empty_notes[k];
}

/* Run `nth` (from 1) of `n`: with several runs its charts' ids carry the
 * number, as an id names one element of the page (the overlay has the
 * plain ones). */
static int run_section(FILE *f, struct run *r, size_t nth, size_t n)
{
    fputs("<section class=\"run\" data-run=\"", f);
    html_escapes(f, r->id);
    fputs("\"><h2>Run ", f);
    html_escapes(f, r->id);
    fputs("</h2>\n<p><code>", f);
    html_escapes(f, r->row->cell[LEDGER_COMMAND]);
    fputs("</code></p>\n", f);
    if (r->rank_note[0]) {
        fputs("<p class=\"note\">", f);
        html_escapes(f, r->rank_note);
        fputs("</p>\n", f);
    }
    oom_section(f, r);
    static struct svg_chart c;
    static struct labels lb;
    for (int k = CHART_MEMORY; k <= CHART_LOSS; k++) {
        chart_one(&c, &lb, r, (enum chart_kind)k);
        if (n > 1) {
            snprintf(lb.id, sizeof lb.id, "%s-%zu", chart_names[k], nth);
            c.id = lb.id;
        }
        if (chart_html(f, &c, chart_note(r, (enum chart_kind)k)) < 0) return -1;
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
            if (chart_html(f, &c, overlay_note(runs, n, (enum chart_kind)k)) < 0) return -1;
        }
    }
    ledger_table(f, runs, n);
    for (size_t i = 0; i < n; i++)
        if (run_section(f, &runs[i], i + 1, n) < 0) return -1;
    fprintf(f, "<p class=\"note\">Made by oomlab %s.</p>\n</body></html>\n", OOMLAB_VERSION);
    return 0;
}

/* ---- command ---- */

struct opts {
    const char *dir, *out, *svg;
    const char *ids[MAX_RUNS];
    size_t n_ids;
};

static int parse_chart(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    for (size_t i = 0; i < sizeof chart_names / sizeof *chart_names; i++)
        if (!strcmp(val, chart_names[i])) return opt_string(o, val, dst, size, err);
    return oomlab_err_set(err, "--svg %s: want memory, steps or loss", val);
}

#define AT(f) OPT_FIELD(struct opts, f)
static const struct opt_spec specs[] = {
    OPT_DIR_SPEC("where runs.csv, logs/ and configs/ are (default .)", AT(dir)),
    {.name = "output", .letter = 'o', .metavar = "FILE", .parse = opt_string, AT(out),
     .help = "where to write (default DIR/reports/ID[+ID...].html;\n'-' stdout)"},
    {.name = "svg", .metavar = "CHART", .parse = parse_chart, AT(svg),
     .help = "write one chart of the first run as a standalone SVG instead\n"
             "(memory, steps or loss; default output DIR/reports/ID-CHART.svg)"},
    {0},
};
static const struct opt_table opt_table = {.command = "report", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs};
CMD_OPTIONS(cmd_report_options, opt_table)

/* CMD_CONTINUE, or the exit code. */
static int parse(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){.dir = "."};
    int first_arg, rc = cmd_options(&opt_table, argc, argv, o, &first_arg);
    if (rc != CMD_CONTINUE) return rc;
    for (int i = first_arg; i < argc; i++) {
        bool again = false; /* a run drawn twice compares with itself: once is enough */
        for (size_t k = 0; k < o->n_ids && !again; k++)
            again = strcmp(o->ids[k], argv[i]) == 0;
        int seen = 0; /* said once per id, however often it repeats */
        for (int k = first_arg; k < i; k++)
            seen += strcmp(argv[k], argv[i]) == 0;
        if (again) {
            if (seen == 1) fprintf(stderr, "oomlab report: note: '%s' is given more than once; drawn once\n", argv[i]);
            continue;
        }
        if (o->n_ids == MAX_RUNS) return cmd_usage_error("report", "at most %d runs in one report", MAX_RUNS);
        o->ids[o->n_ids++] = argv[i];
    }
    return CMD_CONTINUE;
}

/* The page's file name when -o does not give one: A+B.html, A-memory.svg. */
static int default_name(const struct opts *o, struct run *runs, size_t n, char *buf, size_t size)
{
    int k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && k >= 0 && (size_t)k < size; i++)
        k += snprintf(buf + k, size - (size_t)k, "%s%s", i ? "+" : "", runs[i].id);
    if (k >= 0 && (size_t)k < size)
        k += snprintf(buf + k, size - (size_t)k, o->svg ? "-%s.svg" : ".html", o->svg ? o->svg : "");
    return k < 0 || (size_t)k >= size ? -1 : 0;
}

static int default_out(const struct opts *o, struct run *runs, size_t n, char *buf, size_t size, struct oomlab_err *err)
{
    char dir[4096], name[2048];
    if (default_name(o, runs, n, name, sizeof name) < 0) return oomlab_err_set(err, "report path too long");
    if (fsutil_join(dir, sizeof dir, o->dir, "reports", err) < 0 || fsutil_mkdir_p(dir, err) < 0) return -1;
    int k = snprintf(buf, size, "%s/%s", dir, name);
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

/* A directory named where a run id was meant (oomlab's DIR, a log
 * directory): what to type instead, on stderr. False: no id is one. */
static bool dir_given(const struct opts *o)
{
    for (size_t i = 0; i < o->n_ids; i++) {
        struct stat st;
        const char *d = o->ids[i];
        if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        if (ledgerfile_holds(d))
            fprintf(stderr, "oomlab report: %s: a directory, not a run id: it holds oomlab's ledger; report its last "
                            "run with: oomlab report --dir %s (or name runs after it: oomlab table --dir %s lists them)\n",
                    d, d, d);
        else
            fprintf(stderr, "oomlab report: %s: a directory, not a run id: report reads runs that 'oomlab run' "
                            "recorded (runs.csv, logs/ in --dir DIR); for log files from elsewhere: oomlab diagnose %s\n",
                    d, d);
        return true;
    }
    return false;
}

/* A job's row (srun/torchrun ranks, one row in the ledger) has no
 * logs/ID.log: its files are each rank's, logs/ID_rankN.* (ID_rankN_restartK
 * after a torchelastic restart). The page shows one rank's, of the attempt
 * the ledger's row is (the latest restart; lib/ledger ledger_job_page_rank):
 * the first that ran out of memory (the row says oom yes: its page shows
 * that OOM, though another rank's peak may be higher), else the worst
 * (highest peak), else the first that failed, else the first. */
static void run_stem(const struct ledger *lg, struct run *r)
{
    const struct ledger_row *first;
    snprintf(r->stem, sizeof r->stem, "%s", r->id);
    size_t n = ledger_rank_rows(lg, r->id, &first), count;
    if (!n) return;
    long restart;
    const struct ledger_row *pick = ledger_job_page_rank(first, n, r->row->cell[LEDGER_WORST_RANK], &restart, &count);
    if (!pick || ledger_row_stem(r->stem, sizeof r->stem, pick) < 0) {
        snprintf(r->stem, sizeof r->stem, "%s", r->id);
        return;
    }
    char attempt[96] = "";
    if (restart > 0) snprintf(attempt, sizeof attempt, " (restart %ld, the latest: the attempt its row is)", restart);
    snprintf(r->rank_note, sizeof r->rank_note, "A job of %zu ranks%s: its log, memory and steps below are rank %s's "
             "(logs/%s.log)", count, attempt, pick->cell[LEDGER_RANK], r->stem);
}

/* The bytes of s that fit in max without splitting a UTF-8 character. */
static size_t utf8_fit(const char *s, size_t max)
{
    size_t n = strnlen(s, max + 1);
    if (n <= max) return n;
    n = max;
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

static int load_runs(const struct opts *o, struct ledger *lg, struct run *runs, size_t *n)
{
    const char *last = lg->n ? lg->rows[lg->n - 1].cell[LEDGER_RUN_ID] : NULL;
    size_t want = o->n_ids ? o->n_ids : 1;
    for (size_t i = 0; i < want; i++) {
        const char *id = o->n_ids ? o->ids[i] : last;
        const struct ledger_row *row = id ? ledger_find(lg, id) : NULL;
        if (!row) {
            if (dir_given(o)) return -1;
            struct oomlab_err where = {{0}};
            char lpath[4200];
            snprintf(lpath, sizeof lpath, "%s/runs.csv", o->dir);
            const char *given = id ? id : ""; /* cut where too long to be an id or to fit: said with "..." */
            int id_len = (int)utf8_fit(given, 100), path_len = (int)utf8_fit(lpath, 300);
            snprintf(where.msg, sizeof where.msg, "no run '%.*s%s' in %.*s%s ('oomlab table' lists them)", id_len,
                     given, given[id_len] ? "..." : "", path_len, lpath, lpath[path_len] ? "..." : "");
            ledger_io_where_is(o->dir, id, lpath, &where);
            fprintf(stderr, "oomlab report: %s\n", where.msg);
            return -1;
        }
        struct oomlab_err bad = {{0}};
        if (ledger_id_check(row->cell[LEDGER_RUN_ID], &bad) < 0) { /* a hostile ledger names no file */
            fprintf(stderr, "oomlab report: %s/runs.csv line %ld: %s; no report is written for it\n", o->dir,
                    row->line, bad.msg);
            return -1;
        }
        runs[i] = (struct run){.row = row, .id = row->cell[LEDGER_RUN_ID]};
        run_stem(lg, &runs[i]);
        *n = i + 1;
        read_side_files(o->dir, &runs[i]); /* the samples first: the log's lines are placed on their axis */
        read_log(o->dir, &runs[i]);
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
    if (rc != CMD_CONTINUE) return rc;
    struct ledger lg;
    char lpath[4096];
    struct oomlab_err err = {{0}};
    if (ledger_io_load("report", o.dir, &lg, lpath, sizeof lpath, &err) < 0) {
        if (dir_given(&o)) return EXIT_USAGE;
        ledger_io_where_is(o.dir, o.n_ids ? o.ids[0] : NULL, lpath, &err);
        return cmd_fail("report", &err, EXIT_USAGE);
    }
    if (lg.n == 0) {
        ledger_release(&lg);
        if (dir_given(&o)) return EXIT_USAGE;
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
            if (!chart_has_points(&c)) /* a blank picture for an issue should not come as a surprise */
                fprintf(stderr, "oomlab report: %s: the SVG is an empty chart: %s\n", runs[0].id,
                        chart_note(&runs[0], k));
            r = svg_chart_render(f, &c, true);
        } else {
            r = render_html(f, runs, n);
        }
        if (fclose(f) != 0 || r < 0) rc = cmd_fail("report", &(struct oomlab_err){"out of memory"}, EXIT_ERROR);
    }
    char out[4096];
    struct stat st;
    if (rc == EXIT_OK && o.out && stat(o.out, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* -o DIR: the file to name in it, as `cp` would place it */
        char name[2048];
        if (default_name(&o, runs, n, name, sizeof name) == 0)
            oomlab_err_set(&err, "-o %s: is a directory; name the file, e.g. -o %s%s%s", o.out, o.out,
                           o.out[strlen(o.out) - 1] == '/' ? "" : "/", name);
        else
            oomlab_err_set(&err, "-o %s: is a directory; name the file", o.out);
        rc = cmd_fail("report", &err, EXIT_USAGE);
    }
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
