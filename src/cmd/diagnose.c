/* diagnose: read training logs, report every OOM event, the root cause and
 * a ranked fix plan. Options -> logscan (sys) -> verdicts and plan (lib) ->
 * text or JSON (out). Exit 0: no GPU OOM, 1: a GPU OOM, 2: usage/read error. */
#include "cmd/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/memsummary.h"
#include "lib/plan.h"
#include "lib/runcfg.h"
#include "lib/units.h"
#include "lib/verdict.h"
#include "out/color.h"
#include "out/json.h"
#include "sys/cfgfile.h"
#include "sys/logscan.h"

#define CONFIG_MAX (1u << 20)

struct log_result {
    const char *path;
    struct oom_report rep;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: oomlab diagnose [--json] [--config RUN.yaml] [LOG...]\n\n"
            "Find every out-of-memory event in training logs (stdin when no LOG; .gz read\n"
            "transparently), its numbers, stage, step and rank, the root cause and a ranked\n"
            "fix plan.\n\n"
            "  --json            one JSON object, schema oomlab.diagnose.v1\n"
            "  --config FILE     the run's config (YAML or JSON): the plan names its values\n"
            "  -h, --help        this help\n\n"
            "Exit: 0 no GPU OOM found, 1 a GPU OOM found, 2 usage or read error.\n");
}

/* Read a config file (sys/cfgfile: the limit and messages run and probe use). */
static int load_config(const char *path, struct runcfg *cfg, struct oomlab_err *err)
{
    char *text;
    size_t len;
    runcfg_init(cfg);
    if (cfgfile_read(path, &text, &len, err) < 0) return -1;
    int rc = runcfg_parse(cfg, text, len, path, err);
    free(text);
    return rc;
}

/* ---- text ------------------------------------------------------------------ */

struct field_row {
    const char *label;
    int64_t value;
};

static void print_bytes(FILE *f, const struct oom_event *e)
{
    const struct field_row rows[] = {
        {"requested", e->bytes.requested},
        {"capacity", e->bytes.capacity},
        {"free", e->bytes.free},
        {"allocated", e->bytes.allocated},
        {"reserved", e->bytes.reserved},
        {"reserved but unallocated", e->bytes.reserved_unallocated},
        {"this process", e->bytes.process_in_use},
        {"allowed", e->bytes.allowed},
        {"other allocations", e->bytes.other_in_use},
        {"private pools", e->bytes.private_pools},
    };
    const char *sep = "    ";
    bool any = false;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].value < 0) continue;
        char b[32];
        fprintf(f, "%s%s %s%s", sep, rows[i].label, units_format_bytes(rows[i].value, b, sizeof b),
                i == 0 && e->requested_from_shape ? " (from shape)" : "");
        sep = ", ";
        any = true;
    }
    for (size_t i = 0; i < e->n_procs; i++) {
        char b[32];
        fprintf(f, "%sprocess %ld %s", sep, e->procs[i].pid,
                units_format_bytes(e->procs[i].bytes, b, sizeof b));
        sep = ", ";
        any = true;
    }
    if (any) fputc('\n', f);
}

static void print_where(FILE *f, const struct oom_event *e)
{
    fprintf(f, "    line %ld", e->line);
    if (e->rank >= 0) fprintf(f, ", rank %d", e->rank);
    if (e->gpu >= 0) fprintf(f, ", GPU %d", e->gpu);
    if (e->step >= 0) fprintf(f, ", step %ld", e->step);
    fprintf(f, ", stage %s", oom_stage_name(e->stage));
    if (e->repeats > 0) fprintf(f, ", repeated %ld more times", e->repeats);
    fputc('\n', f);
}

static void print_event(FILE *f, bool col, const char *path, const struct oom_event *e,
                        bool primary)
{
    const char *what = e->gpu_oom ? "GPU out of memory" : "not a GPU OOM";
    fprintf(f, "%s%s%s: %s%s%s (%s, %s)%s%s\n", col ? color_code(col, COLOR_BOLD) : "", path,
            color_code(col, COLOR_RESET),
            color_code(col, e->gpu_oom ? COLOR_RED : COLOR_YELLOW), what,
            color_code(col, COLOR_RESET), e->kind, e->framework,
            primary ? " <- root cause" : "", e->consequence ? " (consequence)" : "");
    print_where(f, e);
    print_bytes(f, e);
    fprintf(f, "    %s%s%s\n", color_code(col, COLOR_DIM), e->text, color_code(col, COLOR_RESET));
}

static void print_text(FILE *f, const struct log_result *logs, size_t n, size_t plog,
                       const struct verdicts *v, const struct plan *plan)
{
    bool col = color_enabled(f);
    bool any = false;
    for (size_t l = 0; l < n; l++) {
        const struct oom_report *r = &logs[l].rep;
        for (size_t i = 0; i < r->n_events; i++) {
            print_event(f, col, logs[l].path, &r->events[i], l == plog && (long)i == r->primary);
            any = true;
        }
        if (r->n_dropped)
            fprintf(f, "%s: %zu more events not shown\n", logs[l].path, r->n_dropped);
    }
    if (!any) {
        fprintf(f, "no OOM found (%zu log%s)\n", n, n == 1 ? "" : "s");
        return;
    }
    char buf[400];
    bool head = false;
    for (int k = 0; k < VERDICT_COUNT; k++) {
        if (!verdict_has(v, (enum verdict_kind)k)) continue;
        if (!head) fprintf(f, "\n%sVerdict%s\n", color_code(col, COLOR_BOLD),
                           color_code(col, COLOR_RESET));
        head = true;
        fprintf(f, "  - %s: %s\n", verdict_name((enum verdict_kind)k),
                verdict_explain(v, (enum verdict_kind)k, buf, sizeof buf));
    }
    if (!plan->n) return;
    fprintf(f, "\n%sFix plan%s (one change per run, in this order)\n",
            color_code(col, COLOR_BOLD), color_code(col, COLOR_RESET));
    for (size_t i = 0; i < plan->n; i++)
        fprintf(f, "  %zu. %s%s%s\n     why: %s\n", i + 1, color_code(col, COLOR_GREEN),
                plan->items[i].action, color_code(col, COLOR_RESET), plan->items[i].why);
}

/* ---- JSON ------------------------------------------------------------------ */

/* The torch.cuda.memory_summary() table printed with the event, or null. */
static void json_memsummary(struct json *j, const struct oom_memsummary *m)
{
    if (!m->present) {
        json_null(j);
        return;
    }
    json_obj_begin(j);
    json_key(j, "device");
    m->device >= 0 ? json_int(j, m->device) : json_null(j);
    json_key(j, "ooms");
    m->ooms >= 0 ? json_int(j, m->ooms) : json_null(j);
    json_key(j, "cudamalloc_retries");
    m->retries >= 0 ? json_int(j, m->retries) : json_null(j);
    json_key(j, "allocated_current"), json_bytes(j, m->allocated_cur);
    json_key(j, "allocated_peak"), json_bytes(j, m->allocated_peak);
    json_key(j, "reserved_current"), json_bytes(j, m->reserved_cur);
    json_key(j, "reserved_peak"), json_bytes(j, m->reserved_peak);
    json_key(j, "non_releasable_current"), json_bytes(j, m->nonreleasable_cur);
    json_key(j, "non_releasable_peak"), json_bytes(j, m->nonreleasable_peak);
    json_key(j, "fragmentation_evidence"), json_bool(j, memsummary_fragmented(m));
    json_obj_end(j);
}

static void json_event(struct json *j, const char *path, const struct oom_event *e)
{
    json_obj_begin(j);
    json_key(j, "log"), json_str(j, path);
    json_key(j, "gpu_oom"), json_bool(j, e->gpu_oom);
    json_key(j, "kind"), json_str(j, e->kind);
    json_key(j, "framework"), json_str(j, e->framework);
    json_key(j, "line"), json_int(j, e->line);
    json_key(j, "gpu");
    e->gpu >= 0 ? json_int(j, e->gpu) : json_null(j);
    json_key(j, "rank");
    e->rank >= 0 ? json_int(j, e->rank) : json_null(j);
    json_key(j, "step");
    e->step >= 0 ? json_int(j, e->step) : json_null(j);
    json_key(j, "stage"), json_str(j, oom_stage_name(e->stage));
    json_key(j, "consequence"), json_bool(j, e->consequence);
    json_key(j, "repeats"), json_int(j, e->repeats);
    json_key(j, "bytes");
    json_obj_begin(j);
    json_key(j, "requested"), json_bytes(j, e->bytes.requested);
    json_key(j, "capacity"), json_bytes(j, e->bytes.capacity);
    json_key(j, "free"), json_bytes(j, e->bytes.free);
    json_key(j, "allocated"), json_bytes(j, e->bytes.allocated);
    json_key(j, "reserved"), json_bytes(j, e->bytes.reserved);
    json_key(j, "reserved_unallocated"), json_bytes(j, e->bytes.reserved_unallocated);
    json_key(j, "process_in_use"), json_bytes(j, e->bytes.process_in_use);
    json_key(j, "allowed"), json_bytes(j, e->bytes.allowed);
    json_key(j, "other_in_use"), json_bytes(j, e->bytes.other_in_use);
    json_key(j, "private_pools"), json_bytes(j, e->bytes.private_pools);
    json_obj_end(j);
    json_key(j, "requested_from_shape"), json_bool(j, e->requested_from_shape);
    json_key(j, "shape");
    if (e->shape_rank > 0 && e->shape_rank <= 8) {
        json_arr_begin(j);
        for (int i = 0; i < e->shape_rank; i++) json_int(j, e->shape[i]);
        json_arr_end(j);
    } else {
        json_null(j);
    }
    json_key(j, "processes");
    json_arr_begin(j);
    for (size_t i = 0; i < e->n_procs; i++) {
        json_obj_begin(j);
        json_key(j, "pid"), json_int(j, e->procs[i].pid);
        json_key(j, "bytes"), json_bytes(j, e->procs[i].bytes);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_key(j, "memory_summary");
    json_memsummary(j, &e->mem);
    json_key(j, "text"), json_str(j, e->text);
    json_obj_end(j);
}

static int print_json(FILE *f, const struct log_result *logs, size_t n, long primary,
                      const struct verdicts *v, const struct plan *plan)
{
    struct json j;
    json_init(&j, f, false);
    json_obj_begin(&j);
    json_key(&j, "schema"), json_str(&j, "oomlab.diagnose.v1");
    json_key(&j, "logs");
    json_arr_begin(&j);
    for (size_t l = 0; l < n; l++) {
        json_obj_begin(&j);
        json_key(&j, "path"), json_str(&j, logs[l].path);
        json_key(&j, "lines"), json_int(&j, logs[l].rep.lines);
        json_key(&j, "events"), json_int(&j, (long long)logs[l].rep.n_events);
        json_key(&j, "dropped"), json_int(&j, (long long)logs[l].rep.n_dropped);
        json_key(&j, "expandable_segments_set"), json_bool(&j, logs[l].rep.expandable_set);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_key(&j, "events");
    json_arr_begin(&j);
    for (size_t l = 0; l < n; l++)
        for (size_t i = 0; i < logs[l].rep.n_events; i++)
            json_event(&j, logs[l].path, &logs[l].rep.events[i]);
    json_arr_end(&j);
    json_key(&j, "primary");
    primary >= 0 ? json_int(&j, primary) : json_null(&j);
    json_key(&j, "shortfall"), json_bytes(&j, v->shortfall);
    json_key(&j, "verdicts");
    json_arr_begin(&j);
    char buf[400];
    for (int k = 0; k < VERDICT_COUNT; k++) {
        if (!verdict_has(v, (enum verdict_kind)k)) continue;
        json_obj_begin(&j);
        json_key(&j, "name"), json_str(&j, verdict_name((enum verdict_kind)k));
        json_key(&j, "detail");
        json_str(&j, verdict_explain(v, (enum verdict_kind)k, buf, sizeof buf));
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_key(&j, "plan");
    json_arr_begin(&j);
    for (size_t i = 0; i < plan->n; i++) {
        json_obj_begin(&j);
        json_key(&j, "id"), json_str(&j, plan->items[i].id);
        json_key(&j, "action"), json_str(&j, plan->items[i].action);
        json_key(&j, "why"), json_str(&j, plan->items[i].why);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    return json_finish(&j);
}

/* ---- recipe ---------------------------------------------------------------- */

/* The log whose primary event is the root cause (first with a GPU OOM), or
 * the first log with any event; *global is the primary's index across logs. */
static size_t pick_log(const struct log_result *logs, size_t n, long *global)
{
    long base = 0;
    *global = -1;
    for (size_t l = 0; l < n; l++) {
        if (logs[l].rep.primary >= 0) {
            *global = base + logs[l].rep.primary;
            return l;
        }
        base += (long)logs[l].rep.n_events;
    }
    for (size_t l = 0; l < n; l++)
        if (logs[l].rep.n_events) return l;
    return 0;
}

static int run(struct log_result *logs, size_t n, bool json, const struct runcfg *cfg)
{
    bool failed = false;
    for (size_t l = 0; l < n; l++) {
        struct oomlab_err err = {{0}};
        if (logscan_path(logs[l].path, &logs[l].rep, &err) < 0) {
            cmd_fail("diagnose", &err, EXIT_USAGE);
            failed = true;
        }
    }
    if (failed) return EXIT_USAGE;
    long primary;
    size_t plog = pick_log(logs, n, &primary);
    struct verdicts v;
    struct plan plan;
    verdict_compute(&logs[plog].rep, &v);
    plan_build(&logs[plog].rep, &v, cfg, &plan);
    int wrc = 0;
    if (json) {
        wrc = print_json(stdout, logs, n, primary, &v, &plan);
    } else {
        print_text(stdout, logs, n, plog, &v, &plan);
    }
    if (fflush(stdout) != 0 || ferror(stdout) || wrc < 0) {
        fprintf(stderr, "oomlab diagnose: cannot write output: %s\n", strerror(errno));
        return EXIT_ERROR;
    }
    return primary >= 0 ? EXIT_FOUND : EXIT_OK;
}

int cmd_diagnose(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"config", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    bool json = false;
    const char *config = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "hjc:", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'c': config = optarg; break;
        case 'h': usage(stdout); return EXIT_OK;
        default:
            return cmd_usage_error("diagnose", "unknown or incomplete option '%s'",
                                   argv[optind - 1]);
        }
    }
    struct runcfg cfg;
    bool have_cfg = false;
    if (config) {
        struct oomlab_err err = {{0}};
        if (load_config(config, &cfg, &err) < 0) return cmd_fail("diagnose", &err, EXIT_USAGE);
        have_cfg = true;
    }
    static char *stdin_only[] = {"-"};
    char **paths = optind < argc ? argv + optind : stdin_only;
    size_t n = optind < argc ? (size_t)(argc - optind) : 1;
    struct log_result *logs = calloc(n, sizeof *logs);
    if (!logs) {
        if (have_cfg) runcfg_release(&cfg);
        fprintf(stderr, "oomlab diagnose: out of memory\n");
        return EXIT_ERROR;
    }
    for (size_t l = 0; l < n; l++) {
        logs[l].path = paths[l];
        oom_report_init(&logs[l].rep);
    }
    int rc = run(logs, n, json, have_cfg ? &cfg : NULL);
    for (size_t l = 0; l < n; l++) oom_report_release(&logs[l].rep);
    free(logs);
    if (have_cfg) runcfg_release(&cfg);
    return rc;
}
