/* probe: `oomlab probe [options] -- CMD ARGS...` — find the largest batch
 * (or sequence, or any {NAME}) that fits by real short runs, each a fresh
 * process supervised by runexec (its own run id, log, memory CSV, ledger
 * row tagged "probe"); the search itself is lib/probe. */
#include "cmd/cmd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/argsubst.h"
#include "lib/hfconfig.h"
#include "lib/models.h"
#include "sys/modelsrc.h"
#include "lib/probe.h"
#include "lib/probe_est.h"
#include "lib/runcfg.h"
#include "lib/units.h"
#include "render/color.h"
#include "render/json.h"
#include "render/table.h"
#include "sys/cfgfile.h"
#include "sys/fsutil.h"
#include "sys/logscan.h"
#include "sys/nvml.h"
#include "sys/runexec.h"

#define PROBE_CONFIG_MAX (1 << 20)   /* --model config.json (run configs: sys/cfgfile) */

/* --help: the usage and prose; the option lines come from the table below. */
static const char usage_head[] =
    "usage: oomlab probe [options] -- CMD [ARGS...]\n"
    "\n"
    "Find the largest batch (or sequence length) that fits, by short real runs.\n"
    "Write {batch} (or {seq}, or {NAME} with --param NAME) where the value goes,\n"
    "e.g. --batch-size={batch}; {steps} becomes the --steps value. Or let the\n"
    "command read the trial's config: {config} is DIR/configs/ID.yaml, the\n"
    "--config file with the --set values and the probed value applied.\n"
    "\n";

static const char usage_tail[] =
    UNITS_DURATION_HELP
    "\n"
    "A trial fits when CMD exits 0; it does not fit when its log holds a GPU\n"
    "out-of-memory error; anything else (a crash, the host OOM killer, the\n"
    "timeout) stops the probe with its diagnosis. Multi-GPU launchers such as\n"
    "torchrun exit 0 only when every rank finished, so a trial passes only then.\n"
    "A GPU other processes hold memory on is not probed without --allow-busy.\n"
    "Exit: 0 found, 1 nothing fits, 2 usage, 3 stopped by a non-OOM failure\n"
    "(or a busy GPU), 128+N interrupted by signal N (130 Ctrl-C, 143 SIGTERM).\n";

struct probe_cli {
    const char *param;
    long steps; /* -1: not given */
    int64_t timeout_ms, interval_ms;
    int gpu;
    const char *dir;
    bool json;
    char *const *argv; /* the command template */
    int argc;
    const char *config_path; /* --config */
    char *config_text;       /* its contents (malloc'd) */
    size_t config_len;
    struct opt_list sets; /* --set, in order */
    const char *model_arg; /* --model */
    enum torchhook_mode torch; /* --torch[=steps|snapshot] */
    bool no_confirm;
    bool allow_busy; /* --allow-busy: probe a GPU other processes hold memory on */
    struct probe_opts search;
};

/* Where the trials stand: what the callback needs from one trial to the next. */
struct trial_ctx {
    const struct probe_cli *cli;
    unsigned long number; /* the probe's NNN, claimed by claim_probe_number */
    char letter[24]; /* "b", "s", or the param name, in the run ids */
    int64_t capacity;
    bool log_peaks; /* passing trials' peaks come from the log, not NVML */
};

static volatile sig_atomic_t stop_requested;
/* The signal that stopped the probe (between trials: ours; during one: the
 * one the run engine forwarded to the trial), for the exit code 128+N. */
static int interrupt_signal;

static void on_signal(int sig)
{
    stop_requested = sig;
}

static int parse_param(const struct opt_spec *o, const char *val, void *dst, size_t size,
                       struct oomlab_err *err)
{
    bool ok = *val && strlen(val) <= 16 && strcmp(val, "steps") && strcmp(val, "config");
    for (const char *c = val; ok && *c; c++)
        ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
    if (!ok)
        return oomlab_err_set(err, "--param wants a name of letters, digits and _ "
                                   "(not 'steps' or 'config'), got '%s'", val);
    return opt_string(o, val, dst, size, err);
}

static int parse_headroom(const struct opt_spec *o, const char *val, void *dst, size_t size,
                          struct oomlab_err *err)
{
    double pct;
    if (units_parse_percent(val, &pct) < 0 || pct > 90)
        return oomlab_err_set(err, "--headroom wants a percentage up to 90%%, got '%s'", val);
    *(double *)dst = pct / 100.0;
    return 0;
}

#define AT(f) OPT_FIELD(struct probe_cli, f)
static const struct opt_spec specs[] = {
    {.name = "param", .metavar = "NAME", .parse = parse_param, AT(param),
     .help = "what to probe: batch (default), seq, or any NAME"},
    {.name = "min", .metavar = "N", .parse = opt_int, AT(search.min), .min = 1, .max = LONG_MAX / 4,
     .help = "smallest value (default 1)"},
    {.name = "max", .metavar = "N", .parse = opt_int, AT(search.max), .min = 1, .max = LONG_MAX / 4,
     .help = "largest value: bisect within [min, max]; without it,\ndouble from min until the first OOM"},
    {.name = "steps", .metavar = "N", .parse = opt_int, AT(steps), .min = 1, .max = LONG_MAX / 4,
     .help = "substituted for {steps}: keep trials short"},
    OPT_CONFIG_SPEC("the run config (YAML/JSON) each trial's config starts from", AT(config_path)),
    OPT_SET_SPEC("override a config field (repeatable)", AT(sets)),
    {.name = "model", .metavar = "MODEL", .parse = opt_string, AT(model_arg),
     .help = "start from the estimator's prediction: a HuggingFace\nconfig.json (or its directory) or a preset (see\n"
             "oomlab estimate --list-models); batch or seq only"},
    {.name = "headroom", .metavar = "P", .parse = parse_headroom, AT(search.headroom),
     .help = "kept free on the peak for the recommendation (15%)"},
    {.name = "effective-batch", .metavar = "B", .parse = opt_int, AT(search.effective_batch), .min = 1,
     .max = LONG_MAX / 4, .help = "also print the gradient accumulation that keeps B"},
    OPT_TIMEOUT_SPEC("a trial running longer stops the probe (10m)", AT(timeout_ms)),
    OPT_GPU_SPEC("GPU whose capacity counts (default: the smallest)", AT(gpu)),
    OPT_INTERVAL_SPEC("NVML sampling interval (100ms)", AT(interval_ms)),
    OPT_DIR_SPEC("where logs/, configs/ and runs.csv go (.)", AT(dir)),
    {.name = "no-confirm", .help = "do not re-run the largest fit", AT(no_confirm)},
    {.name = "allow-busy", AT(allow_busy),
     .help = "probe although other processes hold memory on the GPU\n(their jobs may OOM too)"},
    {.name = "json", .help = "print schema oomlab.probe.v1", AT(json)},
    CMD_TORCH_SPEC("each trial under oomlab's PyTorch hook (as run --torch):\nallocator peaks at every step, OOM evidence per trial",
                   AT(torch)),
    {0},
};
static const struct opt_table opt_table = {.command = "probe", .usage = usage_head, .epilogue = usage_tail,
                                       .spec = specs, .stop_at_arg = true};
CMD_OPTIONS(cmd_probe_options, opt_table)

/* Options up to `--` (or the first argument), then the command. CMD_CONTINUE
 * or an exit code. */
static int parse_args(struct probe_cli *cli, int argc, char **argv)
{
    int first, rc = cmd_options(&opt_table, argc, argv, cli, &first);
    if (rc != CMD_CONTINUE) return rc;
    cli->search.confirm = !cli->no_confirm;
    if (first >= argc) return cmd_usage_error("probe", "no command given (oomlab probe [options] -- CMD ARGS...)");
    cli->argv = argv + first;
    cli->argc = argc - first;
    return CMD_CONTINUE;
}

/* Does any argument hold "{key}"? (lib/argsubst, shared with run) */
static bool has_placeholder(const struct probe_cli *cli, const char *key)
{
    return argsubst_uses(cli->argv, (size_t)cli->argc, key);
}

static int check_cli(struct probe_cli *cli)
{
    if (!has_placeholder(cli, cli->param) && !has_placeholder(cli, "config"))
        return cmd_usage_error("probe", "the command has no {%s}: write it where the value goes, "
                                        "e.g. --%s={%s} (or pass the trial's config as {config})",
                               cli->param, cli->param, cli->param);
    if (has_placeholder(cli, "steps") && cli->steps < 0)
        return cmd_usage_error("probe", "the command has {steps} but no --steps was given");
    if (!has_placeholder(cli, "steps") && cli->steps >= 0) /* it was silently ignored */
        return cmd_usage_error("probe", "--steps %ld: the command has no {steps}, so each trial would run "
                                        "as long as the command does; write {steps} where the step count "
                                        "goes (e.g. --max-steps={steps})",
                               cli->steps);
    if (cli->search.max >= 0 && cli->search.max < cli->search.min)
        return cmd_usage_error("probe", "--max %ld is below --min %ld", cli->search.max,
                               cli->search.min);
    return 0;
}

static char **build_argv(const struct probe_cli *cli, long value, const char *id)
{
    char vbuf[32], sbuf[32], cbuf[PATH_MAX];
    snprintf(vbuf, sizeof vbuf, "%ld", value);
    snprintf(sbuf, sizeof sbuf, "%ld", cli->steps);
    snprintf(cbuf, sizeof cbuf, "%s/configs/%s.yaml", cli->dir, id);
    const char *keys[] = {cli->param, "config", "steps"};
    const char *vals[] = {vbuf, cbuf, sbuf};
    return argsubst_argv(cli->argv, (size_t)cli->argc, keys, vals, cli->steps >= 0 ? 3 : 2);
}

/* The trial's config (its ledger row, configs/ID.yaml): the --config file
 * in its own schema with the --set values and then the probed value applied
 * (lib/runcfg_render, as run does); the row's columns are read back from
 * that text. rendered may be NULL; the caller releases cfg (and rendered). */
static int trial_config(const struct probe_cli *cli, long value, const char *bound, struct runcfg *cfg,
                        struct runcfg_rendered *rendered, struct oomlab_err *err)
{
    const char *key = cli->param; /* a ledger title (batch, seq, accum, ckpt) is its column's key */
    for (size_t i = 0; i < ledger_n_short_titles; i++)
        if (!strcmp(cli->param, ledger_short_titles[i].title)) key = ledger_short_titles[i].key;
    char assign[64];
    snprintf(assign, sizeof assign, "%s=%ld", key, value);
    runcfg_init(cfg);
    if (cli->config_text &&
        runcfg_parse(cfg, cli->config_text, cli->config_len, cli->config_path, err) < 0)
        return -1;
    for (size_t i = 0; i < cli->sets.n; i++) /* the values checked with their own messages */
        if (runcfg_set(cfg, cli->sets.item[i], err) < 0) return -1;
    char label[96]; /* what the user gave (--max N), not the --set probe makes of it */
    if (bound) snprintf(label, sizeof label, "%s %ld: %s", bound, value, cli->param);
    else snprintf(label, sizeof label, "%s", cli->param);
    if (runcfg_set_labeled(cfg, assign, label, err) < 0) return -1;
    char *sets[RUNCFG_MAX_SETS];
    if (cli->sets.n + 1 > RUNCFG_MAX_SETS) return oomlab_err_set(err, "too many --set");
    for (size_t i = 0; i < cli->sets.n; i++) sets[i] = (char *)cli->sets.item[i]; /* read only */
    sets[cli->sets.n] = assign;
    struct runcfg_rendered local;
    struct runcfg_rendered *r = rendered ? rendered : &local;
    char header[96];
    snprintf(header, sizeof header, "oomlab probe: %s", assign);
    if (runcfg_render(cli->config_text, cli->config_len, cli->config_path, header, sets,
                      cli->sets.n + 1, r, err) < 0)
        return -1;
    runcfg_release(cfg);
    runcfg_init(cfg);
    int rc = runcfg_parse(cfg, r->text, r->len, "the trial's config", err);
    if (!rendered) runcfg_rendered_release(&local);
    return rc;
}

/* Read --config (bounded) and check it and the --set values once, so a bad
 * config is a usage error before any trial. 0 or an exit code. */
static int load_config(struct probe_cli *cli)
{
    struct oomlab_err err = {{0}};
    if (cli->config_path &&
        cfgfile_read(cli->config_path, &cli->config_text, &cli->config_len, &err) < 0)
        return cmd_usage_error("probe", "%s", err.msg); /* sys/cfgfile: shared with run, diagnose */
    struct runcfg cfg;
    struct runcfg_rendered rendered = {0};
    int rc = trial_config(cli, cli->search.min, "--min", &cfg, &rendered, &err);
    runcfg_release(&cfg);
    bool used = has_placeholder(cli, "config"); /* probe passes --set only through {config} */
    for (size_t i = 0; rc == 0 && i < cli->sets.n; i++) { /* as run says it (lib/runcfg) */
        char warning[512];
        runcfg_set_warning(&rendered, i, cli->sets.item[i], cli->config_path != NULL, used, warning, sizeof warning);
        if (*warning) fprintf(stderr, "oomlab probe: warning: --set %s\n", warning);
    }
    runcfg_rendered_release(&rendered);
    if (rc == 0 && cli->search.max >= 0) {
        /* the largest trial's config too: --max 99999999999 stopped the probe
         * mid-way ("device_batch_size value ... is absurd") after real trials */
        rc = trial_config(cli, cli->search.max, "--max", &cfg, NULL, &err);
        runcfg_release(&cfg);
        if (rc < 0) return cmd_usage_error("probe", "%s", err.msg);
    }
    char note[256];
    runcfg_record_only_note(cli->sets.n, used ? 0 : cli->sets.n, false, note, sizeof note);
    if (rc == 0 && *note) fprintf(stderr, "oomlab probe: note: %s\n", note);
    return rc < 0 ? cmd_usage_error("probe", "%s", err.msg) : 0;
}

/* The model for --model: a preset, or a config.json (or its directory),
 * through the resolver estimate uses (sys/modelsrc). */
static int load_model(const char *arg, struct est_model *m, struct oomlab_err *err)
{
    bool unknown_type;
    if (modelsrc_load(arg, "--model ", false, m, &unknown_type, NULL, err) == 0) return est_model_finish(m, err);
    if (unknown_type) oomlab_err_set(err, "%s: the estimator does not know this model_type", arg);
    return -1;
}

/* --model: the estimator, fed the trial config's workload. 0 or an exit code. */
static int setup_model(struct probe_cli *cli, struct probe_est *pe)
{
    if (!cli->model_arg) return 0;
    struct oomlab_err err = {{0}};
    struct est_model m;
    struct runcfg cfg;
    if (load_model(cli->model_arg, &m, &err) < 0) return cmd_usage_error("probe", "%s", err.msg);
    if (trial_config(cli, cli->search.min, "--min", &cfg, NULL, &err) < 0 ||
        probe_est_init(pe, &m, &cfg, cli->param, &err) < 0) {
        runcfg_release(&cfg);
        return cmd_usage_error("probe", "%s", err.msg);
    }
    runcfg_release(&cfg);
    if (pe->seq_assumed)
        fprintf(stderr, "oomlab probe: --model: no sequence length in the config (--set "
                        "max_seq_len=N); the estimate assumes %lld, the measured peaks correct it\n",
                (long long)pe->wl.seq);
    cli->search.predict = probe_est_predict;
    cli->search.predict_ctx = pe;
    return 0;
}

/* The primary OOM event of a trial's log, read back (NULL when none or
 * unreadable); the caller releases rep. */
static const struct oom_bytes *oom_figures(const struct trial_ctx *c, const struct runexec_result *rr,
                                           struct oom_report *rep)
{
    char path[PATH_MAX];
    struct oomlab_err err;
    memset(rep, 0, sizeof *rep);
    if (!rr->oom) return NULL;
    snprintf(path, sizeof path, "%s/logs/%s.log", c->cli->dir, rr->id);
    if (logscan_path(path, rep, &err) < 0) {
        memset(rep, 0, sizeof *rep);
        return NULL;
    }
    if (rep->primary < 0 || (size_t)rep->primary >= rep->n_events) return NULL;
    return &rep->events[rep->primary].bytes;
}

/* The run engine's result and the log's OOM figures as the search's
 * evidence; the rules that judge it are lib/probe's. */
static enum probe_outcome judge(struct trial_ctx *c, const struct runexec_result *rr,
                                struct probe_trial *t)
{
    struct oom_report rep;
    struct probe_evidence ev = {
        .interrupted = rr->interrupted, .oom = rr->oom, .timed_out = rr->timed_out,
        .failure_other = rr->failure_other, .exit_code = rr->exit_code,
        .term_signal = rr->term_signal, .host_oom_kills = rr->host_oom_kills,
        .host_oom_logged = rr->host_oom_kmsg, .oom_kind = rr->oom_kind, .run_id = rr->id,
        .command = c->cli->argv[0], .timeout_ms = c->cli->timeout_ms,
        .peak_alloc = rr->peak_alloc, .peak_reserved = rr->peak_reserved,
        .peak_nvml = rr->peak_nvml, .capacity = rr->capacity,
        .oom_bytes = oom_figures(c, rr, &rep)};
    snprintf(t->run_id, sizeof t->run_id, "%s", rr->id);
    t->exit_code = rr->exit_code;
    if (rr->interrupted && rr->forwarded_signal > 0 && !interrupt_signal) interrupt_signal = rr->forwarded_signal;
    enum probe_outcome out = probe_classify(&ev, t->diagnosis, sizeof t->diagnosis);
    t->peak = probe_trial_peak(&ev, out, &t->peak_lower_bound);
    if (out == PROBE_FITS && t->peak > 0) c->log_peaks = probe_peak_from_log(&ev);
    t->capacity = probe_trial_capacity(&ev, c->capacity, c->log_peaks);
    t->card = rr->capacity >= 0 ? rr->capacity
              : ev.oom_bytes && ev.oom_bytes->capacity > 0 ? ev.oom_bytes->capacity
                                                           : c->capacity;
    oom_report_release(&rep);
    return out;
}

static void trial_id(const struct trial_ctx *c, long value, char *buf, size_t size)
{
    snprintf(buf, size, "probe%03lu-%s%ld", c->number, c->letter, value);
    /* a re-run of one value (the confirm run) takes the next free suffix */
    char path[PATH_MAX];
    for (int n = 2; n < 100; n++) {
        snprintf(path, sizeof path, "%s/logs/%s.log", c->cli->dir, buf);
        FILE *f = fopen(path, "r");
        if (!f) return;
        fclose(f);
        snprintf(buf, size, "probe%03lu-%s%ld-r%d", c->number, c->letter, value, n);
    }
}

/* "7.89 GiB", ">=7.89 GiB" for an OOM trial's bound, NULL unknown: one
 * form for the table and the progress lines. */
static const char *peak_text(const struct probe_trial *t, char *buf, size_t size)
{
    if (t->peak < 0) return NULL;
    char bytes[32];
    units_format_bytes(t->peak, bytes, sizeof bytes);
    snprintf(buf, size, "%s%s", t->peak_lower_bound ? ">=" : "", bytes);
    return buf;
}

static void progress(const struct probe_cli *cli, const struct probe_trial *t,
                     enum probe_outcome out)
{
    char peak[48] = "";
    if (out == PROBE_FITS || out == PROBE_OOM) {
        char text[40];
        const char *p = peak_text(t, text, sizeof text);
        snprintf(peak, sizeof peak, ", peak %s", p ? p : "unknown");
    }
    fprintf(stderr, "oomlab probe: %s=%ld %s%s (%s)\n", cli->param, t->value,
            probe_outcome_name(out), peak, t->run_id[0] ? t->run_id : "no run");
    if (t->diagnosis[0]) fprintf(stderr, "oomlab probe:   %s\n", t->diagnosis);
}

static enum probe_outcome run_one(void *ctxp, long value, struct probe_trial *t)
{
    struct trial_ctx *c = ctxp;
    const struct probe_cli *cli = c->cli;
    if (stop_requested) {
        if (!interrupt_signal) interrupt_signal = stop_requested;
        snprintf(t->diagnosis, sizeof t->diagnosis, "interrupted before the trial started");
        return PROBE_INTERRUPTED;
    }
    char id[64];
    trial_id(c, value, id, sizeof id);
    struct runcfg cfg;
    struct oomlab_err err = {{0}};
    char **argv = NULL;
    struct runcfg_rendered rendered = {0};
    if (trial_config(cli, value, NULL, &cfg, &rendered, &err) < 0 || !(argv = build_argv(cli, value, id))) {
        snprintf(t->diagnosis, sizeof t->diagnosis, "cannot prepare the trial: %.120s",
                 err.msg[0] ? err.msg : "out of memory");
        runcfg_release(&cfg);
        runcfg_rendered_release(&rendered);
        progress(cli, t, PROBE_FAILED);
        return PROBE_FAILED;
    }
    struct runexec_opts ro = {.dir = cli->dir, .id = id, .argv = argv, .cfg = &cfg,
                              .config_text = rendered.text, .config_len = rendered.len,
                              .gpu = cli->gpu, .interval_ms = cli->interval_ms,
                              .timeout_ms = cli->timeout_ms, .quiet = true, .silent = true, .tag = "probe",
                              .torch = cli->torch};
    struct runexec_result rr;
    memset(&rr, 0, sizeof rr);
    int rc = runexec(&ro, &rr, &err);
    argsubst_free(argv);
    runcfg_release(&cfg);
    runcfg_rendered_release(&rendered);
    enum probe_outcome out;
    if (rc < 0) {
        snprintf(t->diagnosis, sizeof t->diagnosis, "cannot run the trial: %.130s", err.msg);
        out = PROBE_FAILED;
    } else {
        out = judge(c, &rr, t);
    }
    /* A signal after the child finished leaves its outcome standing; the
     * next call reports the stop before running anything. */
    progress(cli, t, out);
    return out;
}

/* Highest probe number used in a folder (trial logs and claim markers in
 * logs/, trial configs in configs/); 0 none. */
static unsigned long highest_probe_number(const char *folder)
{
    unsigned long best = 0;
    DIR *d = opendir(folder);
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        unsigned long n = probe_number_of(e->d_name);
        if (n > best && n < 100000000) best = n;
    }
    closedir(d);
    return best;
}

/* The marker says which probe holds the number (read by people, not us). */
static void write_marker(int fd, const struct probe_cli *cli)
{
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return;
    }
    fprintf(f, "oomlab probe --param %s (pid %ld):", cli->param, (long)getpid());
    for (int i = 0; i < cli->argc; i++) fprintf(f, " %s", cli->argv[i]);
    fprintf(f, "\n");
    fclose(f);
}

/* Claim the next free probe number: one above the highest in logs/ and
 * configs/, taken by creating logs/probeNNN.probe with O_EXCL (as run claims
 * its ids with the log), so probes started together in one directory never
 * share one. */
static int claim_probe_number(const struct probe_cli *cli, unsigned long *number,
                              struct oomlab_err *err)
{
    char logs[PATH_MAX], configs[PATH_MAX], path[PATH_MAX], name[48];
    if (fsutil_join(logs, sizeof logs, cli->dir, "logs", err) < 0 ||
        fsutil_join(configs, sizeof configs, cli->dir, "configs", err) < 0 ||
        fsutil_mkdir_p(logs, err) < 0)
        return -1;
    /* configs/ too: trial configs left without their logs (logs/ cleared,
     * a copied folder) would take the first trial's id ("run id
     * 'probe001-b1' is taken") and stop the probe before it ran */
    unsigned long in_logs = highest_probe_number(logs), in_configs = highest_probe_number(configs);
    unsigned long first = (in_logs > in_configs ? in_logs : in_configs) + 1;
    for (unsigned long n = first; n < first + 10000; n++) {
        snprintf(name, sizeof name, "probe%03lu.probe", n);
        if (fsutil_join(path, sizeof path, logs, name, err) < 0) return -1;
        /* O_NOFOLLOW: a symlink planted under the name is not ours to write through */
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            write_marker(fd, cli);
            *number = n;
            return 0;
        }
        if (errno != EEXIST)
            return oomlab_err_set(err, "cannot create %s: %s", path, strerror(errno));
    }
    return oomlab_err_set(err, "no free probe number in %s after probe%03lu", logs, first);
}

/* The card's capacity before any trial: the chosen GPU, or the smallest.
 * *missing: NVML answers and has no GPU --gpu (every trial would sample
 * nothing and the answer would silently fall back to 15% off the count). */
static int64_t nvml_capacity(int gpu, unsigned *count_out, bool *missing)
{
    struct nvml *nv;
    struct oomlab_err err;
    *missing = false;
    if (nvml_open(&nv, &err) < 0) return -1;
    unsigned count = 0;
    int64_t cap = -1;
    if (nvml_count(nv, &count, &err) == 0) {
        *count_out = count;
        *missing = nvml_gpu_missing(gpu, count, &err);
    }
    if (!*missing)
        for (unsigned i = 0; i < count; i++) {
            struct nvml_gpu g;
            if ((gpu >= 0 && (unsigned)gpu != i) || nvml_gpu(nv, i, &g, &err) < 0) continue;
            if (g.total > 0 && (cap < 0 || g.total < cap)) cap = g.total;
        }
    nvml_close(nv);
    return cap;
}

/* Other processes holding memory on the GPU(s) the probe counts (--gpu N,
 * else every GPU, as the capacity is the smallest of all), before any
 * trial: a probe drives the card to OOM on purpose, so a job sharing it
 * could fail too, and the boundary found would be for what it leaves free.
 * The number of such processes (0: none, or NVML cannot say); the first
 * GPU's figures go to what. */
static size_t busy_gpu(int gpu, char *what, size_t size)
{
    struct nvml *nv;
    struct oomlab_err err;
    unsigned count = 0;
    size_t busy = 0;
    what[0] = '\0';
    if (nvml_open(&nv, &err) < 0) return 0;
    if (nvml_count(nv, &count, &err) < 0) count = 0;
    for (unsigned i = 0; i < count; i++) {
        struct nvml_proc *procs = NULL;
        size_t n = 0;
        if ((gpu >= 0 && (unsigned)gpu != i) || nvml_procs(nv, i, &procs, &n, &err) < 0 || n == 0) {
            free(procs);
            continue;
        }
        /* compute processes only: a desktop's Xorg / compositor (graphics
         * list only) holds a little on every workstation card and is no job */
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (!procs[j].graphics) procs[k++] = procs[j];
        n = k;
        if (n == 0) {
            free(procs);
            continue;
        }
        if (!busy) {
            char held[32] = "memory (NVML gives no figure)", pids[96] = "";
            int64_t sum = nvml_procs_sum(procs, n, NULL);
            if (sum >= 0) units_format_bytes(sum, held, sizeof held);
            size_t used = 0;
            for (size_t j = 0; j < n && j < 4 && used < sizeof pids; j++) {
                int w = snprintf(pids + used, sizeof pids - used, "%s%u", j ? ", " : "", procs[j].pid);
                if (w > 0) used += (size_t)w;
            }
            snprintf(what, size, "GPU %u: %s held by %zu other process%s (PID %s%s)", i, held, n,
                     n == 1 ? "" : "es", pids, n > 4 ? ", ..." : "");
        }
        busy += n;
        free(procs);
    }
    nvml_close(nv);
    return busy;
}

static const char *pct_of(const struct probe_trial *t, int64_t cap, char *buf, size_t size)
{
    if (t->peak < 0 || cap <= 0) return NULL;
    snprintf(buf, size, "%s%.1f%%", t->peak_lower_bound ? ">=" : "",
             100.0 * (double)t->peak / (double)cap);
    return buf;
}

static int print_trials(const struct probe_cli *cli, const struct probe_result *r)
{
    const char *heads[] = {cli->param, "outcome", "peak", "of card", "how", "run"};
    struct table t;
    if (table_init(&t, 6, heads) < 0) return -1;
    table_align_right(&t, 0);
    table_align_right(&t, 2);
    table_align_right(&t, 3);
    for (size_t i = 0; i < r->n_trials; i++) {
        const struct probe_trial *tr = &r->trials[i];
        char v[32], peak[40], pct[32];
        snprintf(v, sizeof v, "%ld", tr->value);
        int64_t cap = tr->card >= 0 ? tr->card : tr->capacity >= 0 ? tr->capacity : r->capacity;
        const char *cells[] = {v, probe_outcome_name(tr->outcome), peak_text(tr, peak, sizeof peak),
                               pct_of(tr, cap, pct, sizeof pct), probe_how_name(tr->how),
                               tr->run_id[0] ? tr->run_id : NULL};
        if (table_add(&t, cells) < 0) {
            table_release(&t);
            return -1;
        }
    }
    table_print(&t, stdout);
    table_release(&t);
    return 0;
}

/* A probe stopped by a failure or Ctrl-C before anything passed: what it
 * learned, never "nothing fits" (a crash says nothing about memory). */
static void print_stopped_early(const struct probe_cli *cli, const struct probe_result *r,
                                bool color)
{
    const struct probe_trial *t = &r->trials[r->stop_trial];
    printf("\n%s%s%s at %s=%ld before any trial passed: what fits is not known yet",
           color_code(color, COLOR_YELLOW),
           r->stop == PROBE_STOP_FAILED ? "stopped" : "interrupted",
           color_code(color, COLOR_RESET), cli->param, t->value);
    if (r->smallest_oom >= 0) printf("; %s=%ld OOMs", cli->param, r->smallest_oom);
    printf("\n");
}

/* Every trial exited 0 and none showed memory: "fits" meant only "exited 0". */
static void print_unmeasured(const struct probe_cli *cli, const struct probe_result *r, bool color)
{
    printf("\n%snothing measured%s: every trial up to %s=%ld exited 0, but none showed GPU memory "
           "(no peak from NVML or step lines, no OOM): no boundary, no recommendation\n"
           "check that the command substitutes {%s} and runs on the GPU: `oomlab run -- CMD` "
           "shows one trial's log and peak\n",
           color_code(color, COLOR_YELLOW), color_code(color, COLOR_RESET), cli->param,
           r->largest_fit, cli->param);
}

static void print_largest(const struct probe_cli *cli, const struct probe_result *r, bool color)
{
    const char *b = color_code(color, COLOR_BOLD), *z = color_code(color, COLOR_RESET);
    bool stopped = r->stop == PROBE_STOP_FAILED || r->stop == PROBE_STOP_INTERRUPTED;
    if (r->stop == PROBE_STOP_UNMEASURED) {
        print_unmeasured(cli, r, color);
        return;
    }
    if (r->largest_fit < 0 && stopped) {
        print_stopped_early(cli, r, color);
        return;
    }
    if (r->largest_fit < 0) {
        printf("\n%snothing fits%s: %s=%ld does not fit", color_code(color, COLOR_RED), z,
               cli->param, cli->search.min);
        printf(r->flaky >= 0 ? " reliably (it passed once, then OOMed on its re-run)\n" : "\n");
        return;
    }
    printf("\nlargest fit: %s%s=%ld%s", b, cli->param, r->largest_fit, z);
    if (r->confirmed) printf(" (passed twice)");
    else if (r->stop == PROBE_STOP_FOUND) printf(" (not re-run)");
    else printf(" (so far)");
    if (r->above_max) printf("; --max itself fits, the boundary is higher");
    if (r->reached_limit) printf("; the doubling limit itself fits");
    if (r->smallest_oom >= 0) printf("; %ld OOMs", r->smallest_oom);
    printf("\n");
    if (!r->pinned && r->stop == PROBE_STOP_FOUND)
        printf("%swarning%s: %d trials spent before the boundary was pinned: it lies between "
               "%ld and %ld\n", color_code(color, COLOR_YELLOW), z, PROBE_MAX_TRIALS,
               r->largest_fit, r->smallest_oom);
    if (r->flaky >= 0)
        printf("%swarning%s: %s=%ld passed once, then OOMed on its re-run: the data decides "
               "(a long batch, an eval step); staying below it\n",
               color_code(color, COLOR_YELLOW), z, cli->param, r->flaky);
}

/* Never above the effective batch asked for: short of it when no split in
 * [recommended/2, recommended] is exact, with the exact split named. */
static void print_accum(const struct probe_cli *cli, const struct probe_result *r)
{
    if (r->grad_accum < 0) return;
    const char *p = cli->param;
    if (r->effective_achieved == r->effective_batch) {
        printf("gradient accumulation: %ld step%s of %s=%ld for the effective batch of %ld\n",
               r->grad_accum, r->grad_accum == 1 ? "" : "s", p, r->accum_batch, r->effective_batch);
        return;
    }
    printf("gradient accumulation: %ld step%s of %s=%ld = %ld, %ld short of the effective "
           "batch %ld\n  (no %s from %ld to %ld divides it; ", r->grad_accum, r->grad_accum == 1 ? "" : "s", p,
           r->accum_batch,
           r->effective_achieved, r->effective_batch - r->effective_achieved, r->effective_batch,
           p, r->accum_low, r->recommended);
    if (r->exact_batch > 0)
        printf("exactly %ld: %s=%ld x %ld steps)\n", r->effective_batch, p, r->exact_batch,
               r->exact_grad_accum);
    else
        printf("no exact split with %s >= %ld)\n", p, cli->search.min);
}

static void print_recommended(const struct probe_cli *cli, const struct probe_result *r)
{
    char peak[32], lim[32], cap[32];
    int pct = (int)lround(cli->search.headroom * 100);
    if (r->largest_fit < 0) return;
    if (r->recommended < 0) {
        if (r->basis == PROBE_BASIS_PEAK)
            printf("recommended: none keeps %d%% headroom: even %s=%ld peaks above %s of %s\n", pct,
                   cli->param, cli->search.min, units_format_bytes(r->headroom_limit, lim, sizeof lim),
                   units_format_bytes(r->capacity, cap, sizeof cap));
        else
            printf("recommended: none: %d%% off %ld leaves nothing\n", pct, r->largest_fit);
        return;
    }
    if (r->basis == PROBE_BASIS_PEAK)
        printf("recommended: %s=%ld (peak %s, within %d%% headroom: at most %s of %s usable)\n",
               cli->param, r->recommended,
               units_format_bytes(r->recommended_peak, peak, sizeof peak), pct,
               units_format_bytes(r->headroom_limit, lim, sizeof lim),
               units_format_bytes(r->capacity, cap, sizeof cap));
    else
        printf("recommended: %s=%ld (%d%% off the count: no peak or capacity was measured)\n",
               cli->param, r->recommended, pct);
    print_accum(cli, r);
}

/* After Ctrl-C (or scancel's SIGTERM) what was learned need not be learned
 * again: the bracket as --min/--max, so the same probe goes on from it. The
 * largest pass is the new --min (it is run again: a start known to fit);
 * the smallest OOM less one, else the old --max, the new --max. A failure
 * stop gets none: the same trial would fail the same way. */
static void print_resume(const struct probe_cli *cli, const struct probe_result *r)
{
    if (r->stop != PROBE_STOP_INTERRUPTED) return;
    long lo = r->largest_fit >= 0 ? r->largest_fit : cli->search.min;
    long hi = r->smallest_oom >= 0 ? r->smallest_oom - 1 : cli->search.max;
    if (r->largest_fit < 0 && r->smallest_oom < 0) return; /* nothing learned */
    if (hi >= 0 && hi < lo) return;                        /* pinned already */
    printf("to go on from here: the same probe with --min %ld", lo);
    if (hi >= 0) printf(" --max %ld", hi);
    printf(" (");
    if (r->largest_fit >= 0) printf("%s=%ld passed", cli->param, r->largest_fit);
    if (r->largest_fit >= 0 && r->smallest_oom >= 0) printf(", ");
    if (r->smallest_oom >= 0) printf("%s=%ld OOMs", cli->param, r->smallest_oom);
    printf(")\n");
}

static int render_text(const struct probe_cli *cli, const struct probe_result *r)
{
    bool color = color_enabled(stdout);
    if (print_trials(cli, r) < 0) return -1;
    print_largest(cli, r, color);
    /* A stopped probe has not pinned the boundary: no recommendation. */
    if (r->stop == PROBE_STOP_FOUND) print_recommended(cli, r);
    printf("trials: %zu", r->n_trials);
    if (cli->search.max >= 0)
        /* a reference, not a bound on this search: peaks that guess past a
         * transient can cost more (11 against 9 on simtrain, --max 128) */
        printf(" (blind bisection: at most %d)", probe_trial_bound(cli->search.min, cli->search.max));
    printf("\n");
    if (r->stop == PROBE_STOP_FAILED || r->stop == PROBE_STOP_INTERRUPTED) {
        const struct probe_trial *t = &r->trials[r->stop_trial];
        printf("%s at %s=%ld: %s\n", r->stop == PROBE_STOP_FAILED ? "stopped" : "interrupted",
               cli->param, t->value, t->diagnosis);
    }
    print_resume(cli, r);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}

static void json_long(struct json *j, const char *key, long v)
{
    json_key(j, key);
    if (v < 0) json_null(j);
    else json_int(j, v);
}

static void json_trials(struct json *j, const struct probe_result *r)
{
    json_key(j, "trials");
    json_arr_begin(j);
    for (size_t i = 0; i < r->n_trials; i++) {
        const struct probe_trial *t = &r->trials[i];
        json_obj_begin(j);
        json_key(j, "value");
        json_int(j, t->value);
        json_key(j, "outcome");
        json_str(j, probe_outcome_name(t->outcome));
        json_key(j, "how");
        json_str(j, probe_how_name(t->how));
        json_key(j, "peak_bytes");
        json_bytes(j, t->peak);
        json_key(j, "peak_lower_bound");
        json_bool(j, t->peak >= 0 && t->peak_lower_bound);
        json_key(j, "capacity_bytes");
        json_bytes(j, t->capacity);
        json_key(j, "exit_code");
        if (t->exit_code < 0) json_null(j);
        else json_int(j, t->exit_code);
        json_key(j, "run_id");
        json_str(j, t->run_id[0] ? t->run_id : NULL);
        json_key(j, "diagnosis");
        json_str(j, t->diagnosis[0] ? t->diagnosis : NULL);
        json_obj_end(j);
    }
    json_arr_end(j);
}

static int render_json(const struct probe_cli *cli, const struct probe_result *r)
{
    struct json j;
    json_init(&j, stdout, true);
    json_obj_begin(&j);
    json_key(&j, "schema");
    json_str(&j, "oomlab.probe.v1");
    json_key(&j, "param");
    json_str(&j, cli->param);
    json_long(&j, "min", cli->search.min);
    json_long(&j, "max", cli->search.max);
    json_key(&j, "headroom_pct");
    json_double(&j, cli->search.headroom * 100);
    json_key(&j, "stop");
    json_str(&j, probe_stop_name(r->stop));
    json_key(&j, "diagnosis");
    json_str(&j, r->stop_trial >= 0 ? r->trials[r->stop_trial].diagnosis : NULL);
    json_long(&j, "largest_fit", r->largest_fit);
    json_key(&j, "largest_fit_peak_bytes");
    json_bytes(&j, r->largest_fit_peak);
    json_key(&j, "confirmed");
    json_bool(&j, r->confirmed);
    json_key(&j, "pinned");
    json_bool(&j, r->pinned);
    json_key(&j, "above_max");
    json_bool(&j, r->above_max);
    json_long(&j, "smallest_oom", r->smallest_oom);
    json_long(&j, "flaky", r->flaky);
    json_key(&j, "capacity_bytes");
    json_bytes(&j, r->capacity);
    json_long(&j, "recommended", r->recommended);
    json_key(&j, "recommended_basis");
    json_str(&j, r->basis == PROBE_BASIS_NONE ? NULL : probe_basis_name(r->basis));
    json_key(&j, "recommended_peak_bytes");
    json_bytes(&j, r->recommended_peak);
    json_key(&j, "headroom_limit_bytes");
    json_bytes(&j, r->headroom_limit);
    json_long(&j, "effective_batch", r->effective_batch);
    json_long(&j, "grad_accum", r->grad_accum);
    json_long(&j, "accum_batch", r->accum_batch);
    json_long(&j, "accum_batch_min", r->accum_low);
    json_long(&j, "effective_batch_achieved", r->effective_achieved);
    json_long(&j, "exact_batch", r->exact_batch);
    json_long(&j, "exact_grad_accum", r->exact_grad_accum);
    json_key(&j, "trial_count");
    json_int(&j, (long long)r->n_trials);
    json_key(&j, "trial_bound");
    if (cli->search.max >= 0) json_int(&j, probe_trial_bound(cli->search.min, cli->search.max));
    else json_null(&j);
    json_trials(&j, r);
    json_obj_end(&j);
    return json_finish(&j);
}

static int exit_for(const struct probe_result *r)
{
    static const int codes[] = {
        [PROBE_STOP_FOUND] = EXIT_OK,
        [PROBE_STOP_NOTHING_FITS] = EXIT_FOUND,
        [PROBE_STOP_FAILED] = EXIT_ERROR,
        [PROBE_STOP_INTERRUPTED] = 128 + SIGINT,
        [PROBE_STOP_UNMEASURED] = EXIT_ERROR,
    };
    /* as run and guard: 128+N for the signal N that stopped it (SIGTERM from
     * a cancelled job is 143, not Ctrl-C's 130) */
    if (r->stop == PROBE_STOP_INTERRUPTED && interrupt_signal > 0) return 128 + interrupt_signal;
    return codes[r->stop];
}

static void catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
}

int cmd_probe(int argc, char **argv)
{
    struct probe_cli cli = {.param = "batch", .steps = -1, .timeout_ms = 10 * 60 * 1000,
                            .interval_ms = 100, .gpu = -1, .dir = "."};
    probe_opts_init(&cli.search);
    int rc = parse_args(&cli, argc, argv);
    if (rc != CMD_CONTINUE) return rc;
    static struct probe_est pe;
    if ((rc = check_cli(&cli)) || (rc = load_config(&cli)) || (rc = setup_model(&cli, &pe))) {
        free(cli.config_text);
        return rc;
    }
    struct oomlab_err err = {{0}};
    unsigned gpus = 0;
    bool gpu_missing;
    struct trial_ctx ctx = {.cli = &cli, .capacity = nvml_capacity(cli.gpu, &gpus, &gpu_missing)};
    if (gpu_missing) {
        free(cli.config_text);
        nvml_gpu_missing(cli.gpu, gpus, &err);
        return cmd_usage_error("probe", "%s", err.msg);
    }
    char busy[256];
    if (busy_gpu(cli.gpu, busy, sizeof busy) > 0) {
        if (!cli.allow_busy) {
            free(cli.config_text);
            fprintf(stderr,
                    "oomlab probe: %s: a probe drives the card to OOM on purpose, so their job could fail "
                    "too, and the largest fit found would be for what they leave free; probe a free GPU "
                    "(--gpu N, with CUDA_VISIBLE_DEVICES for the command), see who holds it with "
                    "'oomlab ps', or pass --allow-busy\n",
                    busy);
            return EXIT_ERROR;
        }
        fprintf(stderr, "oomlab probe: note: %s (--allow-busy): the largest fit is for the memory they "
                        "leave free, and their jobs may OOM during the trials\n", busy);
    }
    if (claim_probe_number(&cli, &ctx.number, &err) < 0) {
        free(cli.config_text);
        return cmd_fail("probe", &err, EXIT_ERROR);
    }
    static const struct { const char *param, *letter; } letters[] = {{"batch", "b"}, {"seq", "s"}};
    snprintf(ctx.letter, sizeof ctx.letter, "%s-", cli.param);
    for (size_t i = 0; i < sizeof letters / sizeof *letters; i++)
        if (!strcmp(cli.param, letters[i].param)) snprintf(ctx.letter, sizeof ctx.letter, "%s", letters[i].letter);
    cli.search.capacity = ctx.capacity;
    cli.search.trial = run_one;
    cli.search.trial_ctx = &ctx;

    struct sigaction old_int, old_term;
    catch_signals(&old_int, &old_term);
    static struct probe_result res;
    rc = probe_run(&cli.search, &res, &err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(cli.config_text);
    if (rc < 0) return cmd_usage_error("probe", "%s", err.msg);
    /* a reader that went away (`oomlab probe ... | head -1`) is no failure
     * of the probe: main's finish() keeps the verdict's code */
    if ((cli.json ? render_json(&cli, &res) : render_text(&cli, &res)) < 0 && errno != EPIPE) {
        oomlab_err_set(&err, "cannot write the result: %s", strerror(errno));
        return cmd_fail("probe", &err, EXIT_ERROR);
    }
    return exit_for(&res);
}
