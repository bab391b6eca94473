/* guard: `oomlab guard --budget SIZE [--headroom P] [--steps N] [--junit FILE]
 * [--github] -- CMD`: a short smoke of CMD under the run engine (its own
 * run id, log, memory CSV and ledger row, as probe's trials), its peak
 * against the budget (lib/gate), the verdict as an exit code of its own,
 * a JUnit XML report (render/junit) and GitHub Actions annotations
 * (render/gha): the guides' CI smoke test. */
#include "cmd/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/live.h"
#include "lib/argsubst.h"
#include "lib/gate.h"
#include "lib/killcause.h"
#include "lib/ledger.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "render/gha.h"
#include "render/json.h"
#include "render/junit.h"
#include "sys/fsutil.h"
#include "sys/logscan.h"
#include "sys/child.h"
#include "sys/nvml.h"
#include "sys/runexec.h"

static const char usage_head[] =
    "usage: oomlab guard --budget SIZE [--headroom P] [--steps N] [--junit FILE]\n"
    "                    [--github] [--id ID] [--dir DIR] [--timeout DUR] [--gpu N]\n"
    "                    [--interval DUR] [--torch] [--quiet] [--json]\n"
    "                    -- CMD [ARGS...]\n"
    "\n"
    "Run a short smoke of CMD under `oomlab run` (its own run id, log and ledger\n"
    "row) and check its peak GPU memory against a budget. The peak is the highest\n"
    "figure the run measured: its ledger peak (--torch hook, else step lines,\n"
    "else NVML, else the OOM message) or NVML's figure for its processes.\n"
    "\n";
static const char usage_tail[] =
    "\n"
    UNITS_DURATION_HELP
    "\n"
    "Exit: 0 pass, 10 over the budget, 11 on the edge (over the headroom line),\n"
    "12 GPU out of memory, 13 the command failed otherwise, 14 no peak measured,\n"
    "128+N oomlab interrupted by signal N (a cancelled CI job: 143), 2 usage,\n"
    "3 oomlab could not run or record it.\n";

struct guard_args {
    struct runexec_opts o;
    int64_t budget;
    double headroom;
    long steps;           /* -1: not given */
    const char *junit;
    bool github;
    bool json;
    struct live live;
    int64_t nvml_tree;    /* NVML's highest figure for the command's processes; -1 */
};

/* --budget SIZE: a size above 0 (lib/units), into an int64_t. */
static int parse_budget(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    if (units_parse_size_arg(val, dst) < 0 || *(int64_t *)dst <= 0)
        return oomlab_err_set(err, "--%s '%s': expected a size such as 70GiB or 24GB", o->name, val);
    if (units_size_arg_bare_small(val, *(int64_t *)dst)) /* "--budget 70" is not 70 bytes */
        return oomlab_err_set(err, "--%s '%s': a bare number is bytes (%s B); give a unit, e.g. %sGiB",
                              o->name, val, val, val);
    return 0;
}

/* --headroom P: a percentage below 100, stored as a fraction. Its default
 * is the edge (lib/ledger.h: LEDGER_HEADROOM), which the help text names. */
static int parse_headroom(const struct opt_spec *o, const char *val, void *dst, size_t size,
                          struct oomlab_err *err)
{
    double pct;
    if (units_parse_percent(val, &pct) < 0 || pct >= 100)
        return oomlab_err_set(err, "--%s '%s': expected a percentage below 100, e.g. 15%%", o->name, val);
    *(double *)dst = pct / 100.0;
    return 0;
}

#define AT(f) OPT_FIELD(struct guard_args, f)
static const struct opt_spec specs[] = {
    {.name = "budget", .metavar = "SIZE", .parse = parse_budget, AT(budget),
     .help = "the memory the job may use, e.g. 70GiB, 24GB (required)"},
    {.name = "headroom", .metavar = "P", .parse = parse_headroom, AT(headroom),
     .help = "fraction of the budget to keep free (default 15%): a peak\nabove budget x (1 - P) is on the edge"},
    {.name = "steps", .metavar = "N", .parse = opt_int, AT(steps), .min = 1, .max = LONG_MAX / 4,
     .help = "{steps} in CMD becomes N; without {steps}, the command is\n"
             "stopped (SIGTERM, then SIGKILL after 20s) once the log has\n"
             "shown N training steps, and that counts as a finished smoke"},
    {.name = "junit", .metavar = "FILE", .parse = opt_string, AT(junit),
     .help = "write a JUnit XML report (one test case) to FILE"},
    {.name = "github", .help = "print GitHub Actions annotations (::error ...) on stdout\n(stderr with --json)", AT(github)},
    {.name = "id", .metavar = "ID", .parse = opt_string, AT(o.id),
     .help = "run id (default: the next free runNNN), as for `oomlab run`"},
    OPT_DIR_SPEC("where configs/, logs/ and runs.csv live (default .)", AT(o.dir)),
    OPT_TIMEOUT_SPEC("SIGTERM the command's group after DUR, SIGKILL 20s later", AT(o.timeout_ms),
                     "leave --timeout out for none"),
    OPT_GPU_SPEC("sample only GPU N (the child's environment is unchanged)", AT(o.gpu)),
    OPT_INTERVAL_SPEC("NVML sampling interval, >= 10ms (default 500ms)", AT(o.interval_ms)),
    CMD_TORCH_SPEC("the smoke under oomlab's PyTorch hook, as `oomlab run --torch`", AT(o.torch)),
    {.name = "json", .help = "one JSON object on stdout, schema oomlab.guard.v1; the verdict\n"
                             "line, --github's annotation and the command's output go\n"
                             "to stderr (its output to the log only with -q)", AT(json)},
    {.name = "quiet", .letter = 'q', .help = "do not echo the command's output (the log still gets it)",
     AT(o.quiet)},
    {0},
};
#undef AT
static const struct opt_table opt_table = {.command = "guard", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs, .stop_at_arg = true};
CMD_OPTIONS(cmd_guard_options, opt_table)

/* CMD_CONTINUE, or the exit code (0 after --help). */
static int parse_args(struct guard_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->o.gpu = -1;
    a->o.interval_ms = 500;
    a->headroom = LEDGER_HEADROOM; /* the edge table and report draw */
    a->steps = -1;
    a->nvml_tree = -1;
    int first, rc = cmd_options(&opt_table, argc, argv, a, &first);
    if (rc != CMD_CONTINUE) return rc;
    if (!a->budget) return cmd_usage_error("guard", "--budget SIZE is required (the memory the job may use)");
    if (first >= argc) return cmd_usage_error("guard", "no command given (put it after --)");
    a->o.argv = argv + first;
    if (a->o.id) {
        struct oomlab_err e = {{0}};
        if (ledger_id_check_new(a->o.id, &e) < 0) return cmd_fail("guard", &e, EXIT_USAGE);
    }
    size_t n = 0;
    while (a->o.argv[n]) n++;
    if (argsubst_uses(a->o.argv, n, "steps") && a->steps < 0)
        return cmd_usage_error("guard", "the command has {steps} but no --steps was given");
    return CMD_CONTINUE;
}

/* The live view: guard --steps without {steps}, and NVML's figure for the
 * command's own processes (never another tenant's memory). */
static bool guard_live(const struct runexec_live *rl, void *ctx)
{
    struct guard_args *a = ctx;
    for (size_t i = 0; i < rl->n_gpus; i++)
        if (rl->gpus[i].tree_peak > a->nvml_tree) a->nvml_tree = rl->gpus[i].tree_peak;
    return live_tick(rl, &a->live);
}

/* The peak the gate judges: the highest figure measured. A budget is about
 * the card: NVML's figure for the processes holds the CUDA context and
 * non-PyTorch memory that the allocator's peak leaves out, and step lines
 * or the hook see peaks between NVML's samples. */
static int64_t gate_peak(const struct guard_args *a, const struct runexec_result *r, const char **source)
{
    int64_t best = -1;
    *source = "";
    if (r->peak_source[0] && strcmp(r->peak_source, "nvml")) {
        best = r->peak_reserved >= 0 ? r->peak_reserved : r->peak_alloc;
        *source = r->peak_source;
    }
    if (a->nvml_tree > 0 && a->nvml_tree > best) best = a->nvml_tree, *source = "nvml";
    return best;
}

/* The OOM's line in the log, for the annotation (0 unknown). */
static long oom_line(const struct runexec_result *r)
{
    struct oom_report rep;
    struct oomlab_err e;
    long line = 0;
    if (!r->oom || logscan_path(r->log_path, &rep, &e) < 0) return 0;
    if (rep.primary >= 0 && (size_t)rep.primary < rep.n_events) line = rep.events[rep.primary].line;
    oom_report_release(&rep);
    return line;
}

struct verdict_text {
    char summary[1300];  /* the run's one line */
    char title[160];
};

static void verdict_text(const struct guard_args *a, const struct runexec_result *r, const struct gate_out *g,
                         const char *source, struct verdict_text *t)
{
    char dur[32];
    snprintf(dur, sizeof dur, "%.1fs", (double)r->duration_ms / 1000.0);
    snprintf(t->title, sizeof t->title, "oomlab guard: %s", g->name);
    char run[160] = "no run recorded"; /* a command that did not start leaves no row, its id free */
    if (r->id[0]) snprintf(run, sizeof run, "run %s", r->id);
    snprintf(t->summary, sizeof t->summary, "%s; %s, exit %d%s, %s%s%s; log %.300s", g->message, run,
             r->exit_code, r->stopped ? " (stopped after the smoke's steps)" : "", dur,
             source[0] ? ", peak from " : "", source, r->log_path);
    if (r->oom && r->first_fix[0]) {
        size_t n = strlen(t->summary);
        snprintf(t->summary + n, sizeof t->summary - n, "; first fix: %s", r->first_fix);
    }
    if (r->oom_earlier) { /* torchelastic restarted past it: still an OOM for the gate */
        size_t n = strlen(t->summary);
        snprintf(t->summary + n, sizeof t->summary - n, "; %s", r->attempts_note);
    }
    (void)a;
}

/* --junit's directory made (CI's `--junit test-results/guard.xml` names
 * one that does not exist yet, as pytest --junitxml allows) and writable,
 * before the command runs: else the run passed and then the job failed. */
static int junit_dir_ready(const char *path, struct oomlab_err *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) /* not fsutil's "remove it", said of its own records */
        return oomlab_err_set(err, "--junit %s: a directory; name the report's file, e.g. --junit %s%sguard.xml", path,
                              path, path[strlen(path) - 1] == '/' ? "" : "/");
    if (fsutil_check_own(path, err) < 0) return -1;
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) return oomlab_err_set(err, "--junit: path too long");
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (fsutil_mkdir_p(dir, err) < 0) return -1;
    }
    return fsutil_check_writable(path, err);
}

static int write_junit(const struct guard_args *a, const struct runexec_result *r, const struct gate_out *g,
                       const struct verdict_text *t, const char *command)
{
    char budget[32], line[32], ts[32], host[256] = "", started[40];
    snprintf(budget, sizeof budget, "%lld", (long long)a->budget);
    snprintf(line, sizeof line, "%lld", (long long)g->line);
    time_t now = time(NULL) - (time_t)(r->duration_ms / 1000);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%S", &tm);
    if (gethostname(host, sizeof host) < 0) host[0] = '\0';
    host[sizeof host - 1] = '\0';
    snprintf(ts, sizeof ts, "%d", g->exit_code);
    struct junit_property props[] = {
        {"run_id", r->id}, {"command", command}, {"budget_bytes", budget}, {"headroom_line_bytes", line},
        {"verdict", g->name}, {"exit_code", ts}, {"log", r->log_path}};
    char name[300], human[32];
    units_format_bytes(a->budget, human, sizeof human);
    snprintf(name, sizeof name, "GPU memory within %s: %.200s", human, command);
    struct junit_case c = {.name = name, .classname = "oomlab.guard", .seconds = (double)r->duration_ms / 1000.0,
                           .result = g->junit, .type = g->name, .message = g->message,
                           .details = g->junit ? t->summary : NULL, .out = t->summary};
    struct junit_suite s = {.name = "oomlab guard", .timestamp = started, .hostname = host,
                            .seconds = c.seconds, .props = props, .n_props = sizeof props / sizeof *props,
                            .cases = &c, .n_cases = 1};
    struct strbuf b = {0};
    junit_write(&b, &s);
    struct oomlab_err e = {{0}};
    int rc = b.failed ? oomlab_err_set(&e, "out of memory") : fsutil_write_atomic(a->junit, b.s, b.n, &e);
    strbuf_release(&b);
    if (rc < 0) fprintf(stderr, "oomlab guard: --junit %s: %s\n", a->junit, e.msg);
    return rc;
}

static void print_github(FILE *out, const struct runexec_result *r, const struct gate_out *g,
                         const struct verdict_text *t)
{
    struct strbuf b = {0};
    const char *level = g->verdict == GATE_PASS ? "notice" : g->verdict == GATE_EDGE ? "warning" : "error";
    long line = oom_line(r);
    char file[8192], cwd[4096];
    if (line > 0)
        gha_file(r->log_path, getenv("GITHUB_WORKSPACE"), getcwd(cwd, sizeof cwd), file, sizeof file);
    gha_annotation(&b, level, line > 0 ? file : NULL, line, t->title, t->summary);
    if (!b.failed) fwrite(b.s, 1, b.n, out);
    strbuf_release(&b);
}

/* --json: the verdict and what it judged, schema oomlab.guard.v1 (docs/ci.md). */
static int print_json(const struct guard_args *a, const struct runexec_result *r, const struct gate_out *g,
                      int64_t peak, const char *source, const char *command)
{
    struct json j;
    json_init(&j, stdout, true);
    json_obj_begin(&j);
    json_key(&j, "schema"), json_str(&j, "oomlab.guard.v1");
    json_key(&j, "verdict"), json_str(&j, g->name);
    json_key(&j, "exit_code"), json_int(&j, g->exit_code);
    json_key(&j, "message"), json_str(&j, g->message);
    json_key(&j, "budget_bytes"), json_bytes(&j, a->budget);
    json_key(&j, "headroom_pct"), json_double(&j, a->headroom * 100);
    json_key(&j, "headroom_line_bytes"), json_bytes(&j, g->line);
    json_key(&j, "peak_bytes"), json_bytes(&j, peak);
    json_key(&j, "peak_lower_bound"), json_bool(&j, source[0] && r->peak_lower_bound);
    json_key(&j, "peak_source"), json_str(&j, source[0] ? source : NULL);
    json_key(&j, "run_id"), json_str(&j, r->id[0] ? r->id : NULL);
    json_key(&j, "command"), json_str(&j, command);
    json_key(&j, "command_exit_code"), json_int(&j, r->exit_code);
    json_key(&j, "stopped_after_steps"), json_bool(&j, r->stopped);
    json_key(&j, "timed_out"), json_bool(&j, r->timed_out);
    json_key(&j, "duration_s"), json_double(&j, (double)r->duration_ms / 1000.0);
    json_key(&j, "oom");
    if (r->oom || r->oom_earlier) {
        long line = oom_line(r);
        json_obj_begin(&j);
        json_key(&j, "line");
        if (line > 0) json_int(&j, line);
        else json_null(&j);
        json_key(&j, "first_fix"), json_str(&j, r->first_fix[0] ? r->first_fix : NULL);
        json_key(&j, "earlier_attempt"), json_str(&j, r->oom_earlier ? r->attempts_note : NULL);
        json_obj_end(&j);
    } else {
        json_null(&j);
    }
    /* the signal the command died of, and what the cgroup's OOM-kill count
     * says of a SIGKILL (lib/killcause): null where there is nothing to say */
    char sig[32];
    json_key(&j, "command_signal"), json_str(&j, r->term_signal ? child_signal_name(r->term_signal, sig, sizeof sig) : NULL);
    json_key(&j, "host_oom_kills");
    if (r->host_oom_kills >= 0) json_int(&j, r->host_oom_kills);
    else json_null(&j);
    enum killcause kc = killcause_after_stop(
        killcause_of(r->term_signal, r->exit_code, r->host_oom_kills, r->host_oom_kmsg),
        r->timed_out || r->stopped || r->interrupted);
    json_key(&j, "kill_cause"), json_str(&j, killcause_name(kc));
    json_key(&j, "interrupted_by");
    if (g->verdict == GATE_INTERRUPTED && r->forwarded_signal > 0) {
        json_str(&j, child_signal_name(r->forwarded_signal, sig, sizeof sig));
    } else {
        json_null(&j);
    }
    json_key(&j, "log"), json_str(&j, r->exec_failed ? NULL : r->log_path);
    json_key(&j, "junit"), json_str(&j, a->junit);
    json_obj_end(&j);
    return json_finish(&j);
}

static char *command_text(char *const *argv)
{
    struct strbuf b = {0};
    for (size_t i = 0; argv[i]; i++) {
        if (i) strbuf_adds(&b, " ");
        strbuf_adds(&b, argv[i]);
    }
    return b.failed ? (strbuf_release(&b), NULL) : b.s;
}

/* {steps} -> N for the command; else the live view stops it after N steps. */
static void smoke_length(struct guard_args *a, const char **keys, const char **vals, char *nbuf, size_t size)
{
    size_t n = 0;
    while (a->o.argv[n]) n++;
    if (a->steps < 0) return;
    if (argsubst_uses(a->o.argv, n, "steps")) {
        snprintf(nbuf, size, "%ld", a->steps);
        keys[0] = "steps", vals[0] = nbuf;
        a->o.subst_keys = keys, a->o.subst_vals = vals, a->o.n_subst = 1;
    } else {
        a->live.stop_after = a->steps;
    }
}

int cmd_guard(int argc, char **argv)
{
    struct guard_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc != CMD_CONTINUE) return rc;
    const char *keys[1], *vals[1];
    char nbuf[32];
    smoke_length(&a, keys, vals, nbuf, sizeof nbuf);
    struct oomlab_err err = {{0}};
    if (a.o.gpu >= 0) { /* a GPU NVML lacks: the smoke would run unsampled and end "unmeasured" (14) */
        struct nvml *nv;
        unsigned count = 0;
        bool missing = nvml_open(&nv, &err) == 0 && nvml_count(nv, &count, &err) == 0 &&
                       nvml_gpu_missing(a.o.gpu, count, &err);
        nvml_close(nv);
        if (missing) return cmd_usage_error("guard", "%s", err.msg);
        memset(&err, 0, sizeof err); /* no NVML: the run says so, as before */
    }
    a.live.who = "guard";
    if (live_init(&a.live, &err) < 0) return cmd_fail("guard", &err, EXIT_ERROR);
    if (a.junit && junit_dir_ready(a.junit, &err) < 0) {
        live_release(&a.live);
        return cmd_fail("guard", &err, EXIT_USAGE);
    }
    /* stdout is the JSON's alone: the command's output goes to stderr, with
     * the verdict line, so a CI console still shows what failed (-q: log only) */
    if (a.json) a.o.echo_stderr = true;
    a.o.tag = "guard";
    a.o.who = "guard";
    a.o.live = guard_live;
    a.o.live_ctx = &a;
    struct runexec_result r;
    rc = runexec(&a.o, &r, &err);
    live_release(&a.live);
    if (rc < 0 && !r.exec_failed)
        return cmd_fail("guard", &err, r.id_taken || r.dir_failed ? EXIT_USAGE : EXIT_ERROR);
    if (rc < 0) fprintf(stderr, "oomlab guard: %s\n", err.msg);
    const char *source;
    int64_t peak = gate_peak(&a, &r, &source);
    char signame[32] = "";
    if (r.term_signal) child_signal_name(r.term_signal, signame, sizeof signame);
    struct gate_in in = {.budget = a.budget, .headroom = a.headroom, .oom = r.oom || r.oom_earlier, .exec_failed = r.exec_failed,
                         .timed_out = r.timed_out, .stopped = r.stopped, .exit_code = r.exit_code,
                         .interrupted_by = r.interrupted ? r.forwarded_signal : 0,
                         .term_signal = r.term_signal, .signal_name = r.term_signal ? signame : NULL,
                         .host_oom_kills = r.host_oom_kills, .host_oom_logged = r.host_oom_kmsg,
                         .peak = peak, .peak_lower_bound = r.peak_lower_bound};
    if (r.exec_failed) { /* as run: nothing recorded, the id stays free */
        snprintf(r.log_path, sizeof r.log_path, "(none: the command did not start)");
        r.id[0] = '\0';
    }
    struct gate_out g;
    gate_judge(&in, &g);
    struct verdict_text t;
    verdict_text(&a, &r, &g, source, &t);
    char *command = command_text(a.o.argv);
    FILE *human = a.json ? stderr : stdout; /* stdout holds the JSON alone */
    fprintf(human, "oomlab guard: %s: %s\n", g.name, t.summary);
    if (a.github) print_github(human, &r, &g, &t); /* the runner reads workflow commands on both */
    int jrc = a.junit ? write_junit(&a, &r, &g, &t, command ? command : "") : 0;
    if (a.json && print_json(&a, &r, &g, peak, source, command) < 0) {
        /* exit 3 with the reason (a full disk); a reader that left is main's
         * SIGPIPE, silently */
        if (errno != EPIPE) fprintf(stderr, "oomlab guard: cannot write the JSON to stdout: %s\n", strerror(errno));
        jrc = -1;
    }
    free(command);
    if (!r.exec_failed && (!r.recorded || r.problem[0]))
        fprintf(stderr, "oomlab guard: %s: %s\n", r.id, r.problem[0] ? r.problem : "ledger row not written");
    return jrc < 0 ? EXIT_ERROR : g.exit_code;
}
