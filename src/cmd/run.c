/* run: `oomlab run [options] -- CMD [ARGS...]` — parse options and the
 * config (any error here writes nothing), hand off to runexec, summarise on
 * stderr, exit like the child. */
#include "cmd/cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/argsubst.h"
#include "lib/launcher.h"
#include "lib/runcfg.h"
#include "lib/units.h"
#include "sys/cfgfile.h"
#include "sys/runexec.h"

#define MAX_SETS 64
#define HELP_SHOWN (-1) /* parse result: --help printed, exit 0 */

static const char usage_text[] =
    "usage: oomlab run [--id ID] [--config FILE] [--set key=value]... [--dir DIR]\n"
    "                  [--interval 500ms] [--gpu N] [--timeout DUR] [--grace DUR]\n"
    "                  [--force] [--quiet] [--note TEXT] [--pty] [--alloc-conf V]\n"
    "                  [--torch[=steps|snapshot]]\n"
    "                  -- CMD [ARGS...]\n"
    "\n"
    "Run CMD (directly, no shell) under one run id: DIR/configs/ID.yaml,\n"
    "DIR/logs/ID.log (stdout+stderr, also shown live), DIR/logs/ID_mem.csv (NVML\n"
    "samples) and one row in DIR/runs.csv. Exits like CMD (128+N when killed by\n"
    "signal N, 127 not found, 126 not executable).\n"
    "\n"
    "  --id ID          run id (default: the next free runNNN)\n"
    "  --config FILE    YAML or JSON config, copied to configs/ID.yaml\n"
    "  --set KEY=VALUE  set a config key (a.b.c for nested keys; aliases\n"
    "                   understood); repeatable\n"
    "  --dir DIR        where configs/, logs/ and runs.csv live (default .)\n"
    "  --interval DUR   NVML sampling interval, >= 10ms (default 500ms)\n"
    "  --gpu N          sample only GPU N (the child's environment is unchanged)\n"
    "  --timeout DUR    SIGTERM the command's group after DUR, SIGKILL after --grace\n"
    "  --grace DUR      SIGTERM to SIGKILL delay for timeouts and Ctrl-C (default 20s)\n"
    "  --force          overwrite an existing run id\n"
    "  -q, --quiet      do not echo the command's output (the log still gets it)\n"
    "  --note TEXT      free text for the ledger's notes column\n"
    "  --pty            run CMD on a pseudo-terminal (for programs that need one)\n"
    "  --alloc-conf V   set PYTORCH_CUDA_ALLOC_CONF=V for the command (recorded)\n"
    "  --torch[=MODE]   load oomlab's PyTorch hook into the command: allocator peaks\n"
    "                   at every optimizer step (logs/ID_steps.csv); on an OOM,\n"
    "                   memory_summary() (and with =snapshot a memory snapshot) in\n"
    "                   logs/ID_oom/. The command's output is unchanged.\n"
    "DUR is a number of seconds, or with a unit: 500ms, 30s, 5m, 2h.\n"
    "\n"
    "In CMD's arguments {config} becomes DIR/configs/ID.yaml (the --config in its\n"
    "own schema with --set applied) and {KEY} the value of --set KEY=VALUE.\n";

struct run_args {
    struct runexec_opts o;
    const char *config_path;
    char *sets[MAX_SETS];
    size_t n_sets;
    const char *alloc_conf;
    /* {KEY} for each --set KEY=VALUE */
    char keys[MAX_SETS][128];
    const char *key_ptr[MAX_SETS], *val_ptr[MAX_SETS];
    struct runcfg_rendered rendered;
    char *orig;
};

enum { OPT_ID = 256, OPT_CONFIG, OPT_SET, OPT_DIR, OPT_INTERVAL, OPT_GPU, OPT_TIMEOUT, OPT_GRACE,
       OPT_FORCE, OPT_NOTE, OPT_PTY, OPT_ALLOC_CONF, OPT_TORCH };

static const struct option long_opts[] = {
    {"id", required_argument, NULL, OPT_ID},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"set", required_argument, NULL, OPT_SET},
    {"dir", required_argument, NULL, OPT_DIR},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"gpu", required_argument, NULL, OPT_GPU},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"grace", required_argument, NULL, OPT_GRACE},
    {"force", no_argument, NULL, OPT_FORCE},
    {"quiet", no_argument, NULL, 'q'},
    {"note", required_argument, NULL, OPT_NOTE},
    {"pty", no_argument, NULL, OPT_PTY},
    {"alloc-conf", required_argument, NULL, OPT_ALLOC_CONF},
    {"torch", optional_argument, NULL, OPT_TORCH},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

const struct option *cmd_run_options(void) { return long_opts; }

static int parse_duration(const char *what, const char *s, int64_t min, int64_t max, int64_t *ms)
{
    struct oomlab_err err;
    if (units_duration_arg(what, s, min, max, ms, &err) < 0)
        return cmd_usage_error("run", "%s", err.msg);
    return 0;
}

static int parse_one(struct run_args *a, int c, const char *arg)
{
    long long v;
    switch (c) {
    case OPT_ID: a->o.id = arg; return 0;
    case OPT_CONFIG: a->config_path = arg; return 0;
    case OPT_SET:
        if (a->n_sets == MAX_SETS) return cmd_usage_error("run", "too many --set (at most %d)", MAX_SETS);
        a->sets[a->n_sets++] = (char *)arg;
        return 0;
    case OPT_DIR: a->o.dir = arg; return 0;
    case OPT_INTERVAL: return parse_duration("--interval", arg, 10, 3600000, &a->o.interval_ms);
    case OPT_TIMEOUT:
        return parse_duration("--timeout", arg, 1, UNITS_DURATION_MAX_MS, &a->o.timeout_ms);
    case OPT_GRACE: return parse_duration("--grace", arg, 1, 3600000, &a->o.grace_ms);
    case OPT_GPU:
        if (units_parse_int(arg, 0, 63, &v) < 0)
            return cmd_usage_error("run", "--gpu '%s': expected a GPU index 0-63", arg);
        a->o.gpu = (int)v;
        return 0;
    case OPT_FORCE: a->o.force = true; return 0;
    case 'q': a->o.quiet = true; return 0;
    case OPT_NOTE: a->o.note = arg; return 0;
    case OPT_PTY: a->o.pty = true; return 0;
    case OPT_ALLOC_CONF: a->alloc_conf = arg; return 0;
    case OPT_TORCH: {
        struct oomlab_err e;
        if (torchhook_mode_parse(arg, &a->o.torch, &e) < 0) return cmd_usage_error("run", "%s", e.msg);
        return 0;
    }
    case 'h': fputs(usage_text, stdout); return HELP_SHOWN;
    default: return cmd_usage_error("run", "unknown option");
    }
}

static int parse_args(struct run_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->o.gpu = -1;
    a->o.interval_ms = 500;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+qh", long_opts, NULL)) != -1) {
        if (c == '?' || c == ':')
            return cmd_usage_error("run", "'%s': unknown option or missing value", argv[optind - 1]);
        int rc = parse_one(a, c, optarg);
        if (rc) return rc;
    }
    if (optind >= argc) return cmd_usage_error("run", "no command given (put it after --)");
    a->o.argv = argv + optind;
    return 0;
}

/* The --set values checked as the alias table reads them (batch=abc is an
 * error here, with its own message), on a scratch config. */
static int check_sets(const struct run_args *a, struct oomlab_err *err)
{
    struct runcfg scratch;
    runcfg_init(&scratch);
    int rc = 0;
    for (size_t i = 0; i < a->n_sets && rc == 0; i++) rc = runcfg_set(&scratch, a->sets[i], err);
    runcfg_release(&scratch);
    return rc;
}

/* "# oomlab run: cfg.yaml with --set a=1 b=2" (runcfg_render cleans it). */
static void header_text(const struct run_args *a, char *buf, size_t size)
{
    int n = snprintf(buf, size, "oomlab run: %s%s", a->config_path ? a->config_path : "no --config",
                     a->n_sets ? " with --set" : "");
    for (size_t i = 0; i < a->n_sets && n > 0 && (size_t)n < size; i++)
        n += snprintf(buf + n, size - (size_t)n, " %s", a->sets[i]);
}

/* {KEY} for every --set KEY=VALUE (the key as written, trimmed). */
static void set_substitutions(struct run_args *a)
{
    for (size_t i = 0; i < a->n_sets; i++) {
        const char *eq = strchr(a->sets[i], '=');
        size_t kl = eq ? (size_t)(eq - a->sets[i]) : 0;
        while (kl && a->sets[i][kl - 1] == ' ') kl--;
        snprintf(a->keys[i], sizeof a->keys[i], "%.*s", (int)kl, a->sets[i]);
        const char *v = eq ? eq + 1 : "";
        while (*v == ' ') v++;
        a->key_ptr[i] = a->keys[i];
        a->val_ptr[i] = v;
    }
    a->o.subst_config = true;
    a->o.subst_keys = a->key_ptr;
    a->o.subst_vals = a->val_ptr;
    a->o.n_subst = a->n_sets;
}

/* Unknown keys get a did-you-mean; and, once, whether --set reaches the
 * command at all. */
static void set_warnings(const struct run_args *a)
{
    size_t argc = 0, record_only = 0;
    while (a->o.argv[argc]) argc++;
    bool uses_config = argsubst_uses(a->o.argv, argc, "config");
    for (size_t i = 0; i < a->n_sets; i++) {
        bool used = uses_config || argsubst_uses(a->o.argv, argc, a->keys[i]);
        record_only += !used;
        const char *sugg = a->rendered.suggestion[i];
        if (!a->rendered.unknown[i] || (used && !*sugg && !a->config_path)) continue;
        fprintf(stderr, "oomlab run: warning: --set %s: %s%s%s%s\n", a->keys[i],
                a->config_path ? "not a key of the config" : "not a key oomlab reads",
                *sugg ? "; did you mean '" : " (added as written)", sugg, *sugg ? "'?" : "");
    }
    if (record_only)
        fprintf(stderr, "oomlab run: note: the command has no {config}%s: --set changes only the "
                        "record (configs/ID.yaml, runs.csv), not what runs\n",
                record_only < a->n_sets ? " and not every {KEY}" : " or {KEY}");
}

/* Config file, then --set on top, in the file's own schema; the ledger's
 * columns are read back from that text. Nothing is written when this fails. */
static int load_config(struct run_args *a, struct runcfg *cfg)
{
    struct oomlab_err err = {{0}};
    size_t len = 0;
    runcfg_init(cfg);
    size_t argc = 0;
    while (a->o.argv[argc]) argc++;
    if (!a->config_path && !a->n_sets) {
        if (argsubst_uses(a->o.argv, argc, "config"))
            return cmd_usage_error("run", "the command uses {config} but there is no --config or --set");
        return 0;
    }
    if (a->config_path && (cfgfile_read(a->config_path, &a->orig, &len, &err) < 0 ||
                           runcfg_parse(cfg, a->orig, len, a->config_path, &err) < 0))
        return cmd_fail("run", &err, EXIT_USAGE);
    if (check_sets(a, &err) < 0) return cmd_fail("run", &err, EXIT_USAGE);
    set_substitutions(a);
    if (a->n_sets) {
        char header[2048];
        header_text(a, header, sizeof header);
        if (runcfg_render(a->orig, len, a->config_path, header, a->sets, a->n_sets, &a->rendered, &err) < 0)
            return cmd_fail("run", &err, EXIT_USAGE);
        runcfg_release(cfg);
        runcfg_init(cfg);
        if (runcfg_parse(cfg, a->rendered.text, a->rendered.len, "the generated config", &err) < 0)
            return cmd_fail("run", &err, EXIT_USAGE);
        set_warnings(a);
    }
    a->o.config_text = a->n_sets ? a->rendered.text : a->orig; /* verbatim without --set */
    a->o.config_len = a->n_sets ? a->rendered.len : len;
    a->o.cfg = cfg;
    a->o.config_path = a->config_path;
    a->o.sets = a->sets;
    a->o.n_sets = a->n_sets;
    return 0;
}

/* "22.39 GiB (log)", ">= 22.39 GiB (OOM message, a lower bound)", "unknown". */
static void peak_text(const struct runexec_result *r, char *buf, size_t size)
{
    char b[32];
    bool nvml = !strcmp(r->peak_source, "nvml");
    int64_t peak = nvml ? r->peak_nvml : r->peak_reserved >= 0 ? r->peak_reserved : r->peak_alloc;
    if (!r->peak_source[0] || peak < 0) {
        snprintf(buf, size, "unknown");
        return;
    }
    units_format_bytes(peak, b, sizeof b);
    snprintf(buf, size, "%s%s (%s)", r->peak_lower_bound ? ">= " : "", b,
             !strcmp(r->peak_source, "oom") ? "OOM message, a lower bound" : r->peak_source);
}

static void summary(const struct runexec_result *r, const char *dir)
{
    char alloc[32], reserved[32], nvml[32], peak[96], mem[200];
    units_format_bytes(r->peak_alloc, alloc, sizeof alloc);
    units_format_bytes(r->peak_reserved, reserved, sizeof reserved);
    units_format_bytes(r->peak_nvml, nvml, sizeof nvml);
    peak_text(r, peak, sizeof peak);
    steps_memory_trend_format(&r->mem, mem, sizeof mem);
    bool nv = !strcmp(r->peak_source, "nvml");
    fprintf(stderr, "oomlab run: %s: exit %d%s%s; OOM %s%s%s; peak %s", r->id, r->exit_code,
            r->interrupted ? ", interrupted" : "", r->timed_out ? ", timed out" : "",
            r->oom ? "yes, " : "no", r->oom ? "stage " : "", r->oom ? oom_stage_name(r->oom_stage) : "",
            peak);
    if (!nv && (r->peak_alloc >= 0 || r->peak_reserved >= 0))
        fprintf(stderr, " [alloc %s, reserved %s]", r->peak_alloc >= 0 ? alloc : "unknown",
                r->peak_reserved >= 0 ? reserved : "unknown");
    fprintf(stderr, "; nvml %s; memory %s; loss %s\n",
            !r->sampled ? "not sampled" : r->peak_nvml > 0 ? nvml : "saw none of it (a shorter --interval, or --torch)",
            mem, r->loss_trend);
    if (r->oom) {
        if (r->first_fix[0]) fprintf(stderr, "oomlab run: %s: first fix: %s\n", r->id, r->first_fix);
        if (!dir || !strcmp(dir, "."))
            fprintf(stderr, "oomlab run: %s: the whole diagnosis: oomlab diagnose %s\n", r->id, r->id);
        else
            fprintf(stderr, "oomlab run: %s: the whole diagnosis: oomlab diagnose %s\n", r->id, r->log_path);
    }
    if (r->ranks_seen > 1) {
        char first[48] = "";
        if (r->first_oom_rank >= 0) snprintf(first, sizeof first, "; first GPU OOM: rank %ld", r->first_oom_rank);
        fprintf(stderr, "oomlab run: %s: %d ranks; worst rank %ld (%s)%s\n", r->id, r->ranks_seen, r->worst_rank,
                r->worst_rank_from, first);
    }
    if (r->problem[0]) fprintf(stderr, "oomlab run: %s: %s\n", r->id, r->problem);
}

static const char *env_lookup(const char *name, void *ctx)
{
    (void)ctx;
    return getenv(name);
}

/* One oomlab per rank (srun oomlab run ...): the launcher's variables say
 * which rank; the ranks share one id (the job's, when none is given) and
 * each samples only its own GPU when that is knowable and --gpu is not
 * given. OOMLAB_RANKS=off records a plain run. */
static int rank_setup(struct run_args *a, struct launcher_info *info, char *id, size_t size)
{
    const char *off = getenv("OOMLAB_RANKS");
    launcher_detect(env_lookup, NULL, info);
    if ((off && !strcmp(off, "off")) || !launcher_is_rank(info)) return 0;
    a->o.rank = info;
    if (!a->o.id) {
        if (launcher_default_id(info, id, size) < 0)
            return cmd_usage_error("run", "rank %ld of a job without a job id: give every rank the same --id",
                                   info->rank);
        a->o.id = id;
    }
    if (a->o.gpu < 0 && info->gpu >= 0) a->o.gpu = info->gpu;
    if (!a->o.quiet && info->rank == 0)
        fprintf(stderr, "oomlab run: rank %ld of %ld (%s), job %s: files %s_rankN, GPU %s\n", info->rank,
                info->world_size, info->rank_from, *info->job_id ? info->job_id : "without an id", a->o.id,
                info->gpu >= 0 ? "from the launcher" : info->gpu_why);
    return 0;
}

static void run_args_release(struct run_args *a, struct runcfg *cfg)
{
    runcfg_release(cfg);
    runcfg_rendered_release(&a->rendered);
    free(a->orig);
    a->orig = NULL;
}

int cmd_run(int argc, char **argv)
{
    struct run_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc) return rc == HELP_SHOWN ? EXIT_OK : rc;
    struct oomlab_err err = {{0}};
    if (a.o.id && runexec_check_id(a.o.id, &err) < 0) return cmd_fail("run", &err, EXIT_USAGE);
    struct launcher_info rank_info;
    char rank_id[64];
    if ((rc = rank_setup(&a, &rank_info, rank_id, sizeof rank_id)) != 0) return rc;
    struct runcfg cfg;
    rc = load_config(&a, &cfg);
    if (!rc && a.alloc_conf && setenv("PYTORCH_CUDA_ALLOC_CONF", a.alloc_conf, 1) < 0)
        rc = cmd_usage_error("run", "--alloc-conf: cannot set the environment");
    if (rc) {
        run_args_release(&a, &cfg);
        return rc;
    }
    struct runexec_result res;
    rc = runexec(&a.o, &res, &err);
    run_args_release(&a, &cfg);
    if (rc < 0) {
        int code = res.exec_failed                    ? res.exit_code
                   : res.id_taken || res.dir_failed ? EXIT_USAGE /* bad --dir / id: nothing written */
                                                    : EXIT_ERROR;
        return cmd_fail("run", &err, code);
    }
    summary(&res, a.o.dir);
    /* The child's code wins; a clean run whose records failed is an error. */
    if (res.exit_code == 0 && (!res.recorded || res.problem[0])) return EXIT_ERROR;
    return res.exit_code;
}
