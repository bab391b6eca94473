/* run: `oomlab run [options] -- CMD [ARGS...]` — parse options and the
 * config (any error here writes nothing), hand off to runexec, summarise on
 * stderr, exit like the child. */
#include "cmd/cmd.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/live.h"
#include "lib/allocconf.h"
#include "lib/argsubst.h"
#include "lib/onoom.h"
#include "lib/launcher.h"
#include "lib/killcause.h"
#include "lib/ledger.h"
#include "lib/runcfg.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "render/table.h"
#include "sys/cfgfile.h"
#include "sys/child.h"
#include "sys/runexec.h"

#define MAX_SETS 64

static const char usage_head[] =
    "usage: oomlab run [--id ID] [--config FILE] [--set key=value]... [--dir DIR]\n"
    "                  [--interval 500ms] [--gpu N] [--timeout DUR] [--grace DUR]\n"
    "                  [--force] [--quiet] [--note TEXT] [--pty] [--alloc-conf V]\n"
    "                  [--torch[=steps|snapshot]] [--prom DIR [--prom-dcgm]]\n"
    "                  [--on-oom halve-batch|halve-seq|ckpt [--on-oom-floor N]\n"
    "                   [--max-attempts N]]\n"
    "                  -- CMD [ARGS...]\n"
    "\n"
    "Run CMD (directly, no shell) under one run id: DIR/configs/ID.yaml,\n"
    "DIR/logs/ID.log (stdout+stderr, also shown live), DIR/logs/ID_mem.csv (NVML\n"
    "samples) and one row in DIR/runs.csv. Exits like CMD (128+N when killed by\n"
    "signal N, 127 not found, 126 not executable); 2 usage, bad config, id or\n"
    "--dir; 3 the command succeeded but the records could not be written.\n"
    "\n";
static const char usage_tail[] =
    UNITS_DURATION_HELP
    "\n"
    "In CMD's arguments {config} becomes DIR/configs/ID.yaml (the --config in its\n"
    "own schema with --set applied) and {KEY} the value of --set KEY=VALUE.\n";

struct run_args {
    struct runexec_opts o;
    const char *config_path;
    struct opt_list set_args; /* --set as given */
    char *sets[MAX_SETS];     /* what an attempt applies: the user's, then --on-oom's */
    size_t n_sets;
    const char *alloc_conf;
    /* {KEY} for each --set KEY=VALUE */
    char keys[MAX_SETS][128];
    const char *key_ptr[MAX_SETS], *val_ptr[MAX_SETS];
    struct runcfg_rendered rendered;
    char *orig;
    struct live live;     /* --prom */
    const char *on_oom;   /* --on-oom policy name (lib/onoom) */
    enum onoom_policy policy;
    long floor, max_attempts;
    size_t n_user_sets;   /* the user's --set; ours follow them */
    char our_sets[2][160];
    const char *first_id, *user_note;
    char id_buf[64], note_buf[1024];
    bool warned;          /* set_warnings said its piece on the first attempt */
};

#define AT(f) OPT_FIELD(struct run_args, f)
static const struct opt_spec specs[] = {
    {.name = "id", .metavar = "ID", .parse = opt_string, AT(o.id),
     .help = "run id (default: the next free runNNN)"},
    OPT_CONFIG_SPEC("YAML or JSON config, copied to configs/ID.yaml", AT(config_path)),
    OPT_SET_SPEC("set a config key (a.b.c for nested keys; aliases\nunderstood); repeatable", AT(set_args)),
    OPT_DIR_SPEC("where configs/, logs/ and runs.csv live (default .)", AT(o.dir)),
    OPT_INTERVAL_SPEC("NVML sampling interval, >= 10ms (default 500ms)", AT(o.interval_ms)),
    OPT_GPU_SPEC("sample only GPU N (the child's environment is unchanged)", AT(o.gpu)),
    OPT_TIMEOUT_SPEC("SIGTERM the command's group after DUR, SIGKILL after --grace", AT(o.timeout_ms),
                     "leave --timeout out for none"),
    OPT_GRACE_SPEC("SIGTERM to SIGKILL delay for timeouts and Ctrl-C\n(default 20s)", AT(o.grace_ms)),
    {.name = "force", .help = "overwrite an existing run id", AT(o.force)},
    {.name = "quiet", .letter = 'q', .help = "do not echo the command's output (the log still gets it)",
     AT(o.quiet)},
    {.name = "note", .metavar = "TEXT", .parse = opt_string, AT(o.note),
     .help = "free text for the ledger's notes column"},
    {.name = "pty", .help = "run CMD on a pseudo-terminal (for programs that need one)", AT(o.pty)},
    {.name = "alloc-conf", .metavar = "V", .parse = opt_string, AT(alloc_conf),
     .help = "set PYTORCH_CUDA_ALLOC_CONF=V for the command (recorded)"},
    CMD_TORCH_SPEC("load oomlab's PyTorch hook into the command: allocator peaks\n"
                   "at every optimizer step (logs/ID_steps.csv); on an OOM,\n"
                   "memory_summary() (and with =snapshot a memory snapshot) in\n"
                   "logs/ID_oom/. The command's output is unchanged.", AT(o.torch)),
    {.name = "prom", .metavar = "DIR", .parse = opt_string, AT(live.prom_dir),
     .help = "keep DIR/oomlab_run_ID[_rankR].prom (node_exporter's\n"
             "textfile collector) up to date: per-GPU used/total, the\n"
             "run's peak, step, OOM count; final values at the end (the\n"
             "file stays)"},
    {.name = "prom-dcgm", .help = "also dcgm-exporter's DCGM_FI_DEV_FB_USED/FREE (MiB)", AT(live.prom_dcgm)},
    {.name = "on-oom", .metavar = "HOW", .parse = opt_string, AT(on_oom),
     .help = "after a GPU OOM, run again with one change (a new run id\n"
             "each): halve-batch (grad accumulation doubled: same\n"
             "effective batch), halve-seq, or ckpt (gradient\n"
             "checkpointing on)"},
    {.name = "on-oom-floor", .metavar = "N", .parse = opt_int, AT(floor), .min = 1, .max = LONG_MAX / 4,
     .help = "stop halving below N (default 1)"},
    {.name = "max-attempts", .metavar = "N", .parse = opt_int, AT(max_attempts), .min = 1, .max = 100,
     .help = "runs in all, the first included (default 4)"},
    {0},
};
#undef AT
/* The record's keys are --set, not options of their own */
static const struct opt_hint hints[] = {
    {"batch", "--set device_batch_size=N (and {device_batch_size} where the command takes it)"},
    {"batch-size", "--set device_batch_size=N (and {device_batch_size} where the command takes it)"},
    {"seq", "--set max_seq_len=N (and {max_seq_len} where the command takes it)"},
    {"seq-len", "--set max_seq_len=N (and {max_seq_len} where the command takes it)"},
    {"grad-accum", "--set grad_accum=N (and {grad_accum} where the command takes it)"},
    {0},
};
static const struct opt_table opt_table = {.command = "run", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs, .stop_at_arg = true, .hints = hints};
CMD_OPTIONS(cmd_run_options, opt_table)

/* CMD_CONTINUE, or the exit code (0 after --help). */
static int parse_args(struct run_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->o.gpu = -1;
    a->o.interval_ms = 500;
    int first, rc = cmd_options(&opt_table, argc, argv, a, &first);
    if (rc != CMD_CONTINUE) return rc;
    if (first >= argc) return cmd_usage_error("run", "no command given (put it after --)");
    a->o.argv = argv + first;
    for (size_t i = 0; i < a->set_args.n; i++) a->sets[i] = (char *)a->set_args.item[i]; /* argv's own */
    a->n_sets = a->set_args.n;
    if (a->live.prom_dcgm && !a->live.prom_dir)
        return cmd_usage_error("run", "--prom-dcgm goes with --prom DIR");
    return CMD_CONTINUE;
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
    /* a later --set of a key wins, in {KEY} as in the config: --on-oom's
     * change comes after the user's value it replaces (argsubst takes the
     * first match; an empty key matches nothing) */
    for (size_t i = 0; i < a->n_sets; i++)
        for (size_t j = i + 1; j < a->n_sets && a->keys[i][0]; j++)
            if (!strcmp(a->keys[i], a->keys[j])) a->key_ptr[i] = "";
    a->o.subst_config = true;
    a->o.subst_keys = a->key_ptr;
    a->o.subst_vals = a->val_ptr;
    a->o.n_subst = a->n_sets;
}

/* A {NAME} in the command that no --set names reaches the command as
 * written ("--bs {bacth}"): name the first few, so a typo is not found
 * by the training script's argument parser. ${NAME} (shell) and braces
 * around anything but a key name (JSON, format strings) are left alone. */
static void unmatched_placeholders(const struct run_args *a)
{
    int said = 0;
    for (size_t w = 0; a->o.argv[w] && said < 3; w++) {
        for (const char *p = strchr(a->o.argv[w], '{'); p && said < 3; p = strchr(p + 1, '{')) {
            size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
            if (n == 0 || n >= sizeof a->keys[0] || p[1 + n] != '}') continue;
            if (p > a->o.argv[w] && p[-1] == '$') continue;
            bool known = n == 6 && !strncmp(p + 1, "config", 6);
            for (size_t i = 0; i < a->n_sets && !known; i++)
                known = strlen(a->keys[i]) == n && !strncmp(p + 1, a->keys[i], n);
            if (known) continue;
            fprintf(stderr, "oomlab run: note: the command's {%.*s} matches no --set key: it is passed as written\n",
                    (int)n, p + 1);
            said++;
        }
    }
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
        char warning[512];
        runcfg_set_warning(&a->rendered, i, a->sets[i], a->config_path != NULL, used, warning, sizeof warning);
        if (*warning) fprintf(stderr, "oomlab run: warning: --set %s\n", warning);
    }
    char note[256];
    runcfg_record_only_note(a->n_sets, record_only, true, note, sizeof note);
    if (*note) fprintf(stderr, "oomlab run: note: %s\n", note);
    unmatched_placeholders(a);
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
        if (!a->warned) unmatched_placeholders(a); /* "--bs {batch}" with no --set at all */
        return 0;
    }
    if (a->config_path && (cfgfile_read(a->config_path, &a->orig, &len, &err) < 0 ||
                           runcfg_parse(cfg, a->orig, len, a->config_path, &err) < 0))
        return cmd_fail("run", &err, EXIT_USAGE);
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
        if (!a->warned) set_warnings(a);
    } else if (!a->warned) {
        unmatched_placeholders(a);
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

/* NVML saw the GPU but never the run's own processes: "device-wide only
 * (...): peak 3.16 GiB, 3.00 GiB in use at the start", and where the
 * device rose, by how much, as what it is: the run's own only if nothing
 * else on the GPU changed. Never the run's peak. */
static void device_text(const struct runexec_result *r, char *buf, size_t size)
{
    char peak[32], start[32], rise[32];
    units_format_bytes(r->device_peak, peak, sizeof peak);
    units_format_bytes(r->device_start, start, sizeof start);
    int n = snprintf(buf, size, "device-wide only (NVML showed none of the run's own processes): peak %s, %s in use at the start",
                     peak, r->device_start >= 0 ? start : "unknown");
    if (n < 0 || (size_t)n >= size || r->device_start < 0 || r->device_peak <= r->device_start) return;
    units_format_bytes(r->device_peak - r->device_start, rise, sizeof rise);
    snprintf(buf + n, size - (size_t)n, " (a rise of %s: the run's own only if nothing else on the GPU changed)", rise);
}

/* A SIGKILL, or the kernel's OOM killer counted during the run: host RAM
 * or someone else's kill, which the GPU fixes would not touch (lib/killcause). */
static void host_kill_text(const struct runexec_result *r)
{
    enum killcause cause = killcause_after_stop(
        killcause_of(r->term_signal, r->exit_code, r->host_oom_kills, r->host_oom_kmsg),
        r->timed_out || r->interrupted || r->stopped);
    if (cause == KILLCAUSE_NONE) return;
    bool host = cause == KILLCAUSE_HOST_OOM || cause == KILLCAUSE_HOST_OOM_LOGGED;
    char text[400];
    killcause_text(cause, r->term_signal, r->host_oom_kills, text, sizeof text);
    fprintf(stderr, "oomlab run: %s: %s%s\n", r->id, text,
            host ? "; " CMD_HOST_RAM_FIXES " (SLURM --mem) are the fixes" : "");
}

/* With -q a run that failed by itself (a non-zero exit, no GPU OOM, no
 * signal, no host OOM) showed only "exit 1; OOM no": why it failed was in
 * the log alone. Its last line (a Python exception's message, "can't open
 * file", a launcher's error) is said, cut to TAIL_SHOW bytes, control
 * characters and invalid UTF-8 as '?'. */
#define TAIL_READ 4096
#define TAIL_SHOW 240

/* Is buf[start, end) binary rather than a line of text? More than one
 * byte in 8 a control byte (not a tab or a colour's ESC), a NUL or not
 * UTF-8: a program's raw output (pickled data or a tensor written to
 * stdout) whose stray letters are no message. */
static bool line_binary(const char *buf, size_t start, size_t end)
{
    size_t bad = 0;
    for (size_t i = start; i < end;) {
        unsigned char c = (unsigned char)buf[i];
        size_t k = c < 0x80 ? 1 : strbuf_utf8_seq((const unsigned char *)buf + i, end - i, NULL);
        if (k == 0 || (c < 0x20 && c != '\t' && c != 0x1B) || c == 0x7F) bad++; /* ESC: a colour, text */
        i += k ? k : 1;
    }
    return bad * 8 > end - start;
}

static void failure_tail(const struct runexec_result *r)
{
    if (r->exit_code == 0 || r->oom || r->failure_other || r->interrupted || r->timed_out || r->stopped ||
        r->term_signal || r->exec_failed)
        return;
    int fd = open(r->log_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return;
    struct stat st;
    char buf[TAIL_READ + 1];
    ssize_t n = -1;
    off_t from = 0;
    char before = '\n'; /* the byte before the read: the log's start is a line's */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        from = st.st_size > TAIL_READ ? st.st_size - TAIL_READ : 0;
        n = pread(fd, buf, TAIL_READ, from);
        if (from > 0 && pread(fd, &before, 1, from - 1) != 1) before = 'x'; /* unknown: taken as mid-word */
    }
    close(fd);
    if (n <= 0) return;
    /* the last line with a letter or digit: not a launcher's closing
     * "=====" rule or a blank line */
    size_t end = (size_t)n, start;
    bool binary = false; /* a binary line passed over: said when no text line comes before it */
    for (;;) {
        while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == '\r' || buf[end - 1] == ' ' || buf[end - 1] == '\t'))
            end--;
        if (end == 0) {
            if (binary)
                fprintf(stderr, "oomlab run: %s: exit %d, no GPU OOM; the log ends in binary output (%s)\n", r->id,
                        r->exit_code, r->log_path);
            return;
        }
        start = end;
        while (start > 0 && buf[start - 1] != '\n' && buf[start - 1] != '\r') start--; /* a redrawn bar: its last state */
        bool words = false;
        for (size_t i = start; i < end && !words; i++) words = isalnum((unsigned char)buf[i]) != 0;
        if (words && line_binary(buf, start, end)) binary = true, words = false;
        if (words) break;
        end = start;
    }
    /* a line longer than the read, begun before it: said from its first
     * whole word, the cut marked with "…" (not from inside a word) (left25);
     * a line begun right at the read's start (a newline before it) is
     * whole, and a word begun there (a blank before it) is whole too */
    bool mid = start == 0 && before != '\n' && before != '\r';
    if (mid && before != ' ' && before != '\t') { /* the read begins inside a word: past it */
        size_t w = start;
        while (w < end && buf[w] != ' ' && buf[w] != '\t') w++;
        if (w < end) start = w; /* else one word fills the read: from a character's start */
        while (start < end && ((unsigned char)buf[start] & 0xC0) == 0x80) start++;
    }
    while (start < end && (buf[start] == ' ' || buf[start] == '\t')) start++;
    bool cut = end - start > TAIL_SHOW;
    if (cut) {
        end = start + TAIL_SHOW;
        while (end > start && ((unsigned char)buf[end] & 0xC0) == 0x80) end--; /* not inside a character */
    }
    for (size_t i = start; i < end; i++)
        if (buf[i] == '\0') buf[i] = '?';
    buf[end] = '\0';
    char *line = table_clean(buf + start);
    if (!line) return;
    fprintf(stderr, "oomlab run: %s: exit %d, no GPU OOM; the log's last line: %s%s%s\n", r->id, r->exit_code,
            mid ? "\xe2\x80\xa6" : "", line, cut ? " ..." : "");
    free(line);
}

static void summary(const struct runexec_result *r, const char *dir, enum torchhook_mode torch)
{
    char alloc[32], reserved[32], nvml[32], peak[96], mem[200];
    units_format_bytes(r->peak_alloc, alloc, sizeof alloc);
    units_format_bytes(r->peak_reserved, reserved, sizeof reserved);
    units_format_bytes(r->peak_nvml, nvml, sizeof nvml);
    peak_text(r, peak, sizeof peak);
    steps_memory_trend_format(&r->mem, mem, sizeof mem);
    bool nv = !strcmp(r->peak_source, "nvml");
    bool peak_from_steps = !strcmp(r->peak_source, "log") || !strcmp(r->peak_source, "torch");
    /* the signal a child died of, named where the exit code alone would hide
     * it ("exit 139" is SIGSEGV); SIGKILL has its own line below */
    char sig[32] = "", killed[48] = "";
    if (r->term_signal > 0 && r->term_signal != SIGKILL && !r->interrupted && !r->timed_out)
        snprintf(killed, sizeof killed, " (killed by %s)", child_signal_name(r->term_signal, sig, sizeof sig));
    fprintf(stderr, "oomlab run: %s: exit %d%s%s%s; OOM %s%s%s; peak %s", r->id, r->exit_code, killed,
            r->interrupted ? ", interrupted" : "", r->timed_out ? ", timed out" : "",
            r->oom ? "yes, " : "no", r->oom ? "stage " : "", r->oom ? oom_stage_name(r->oom_stage) : "",
            peak);
    if (!nv && (r->peak_alloc >= 0 || r->peak_reserved >= 0))
        fprintf(stderr, " [alloc %s, reserved %s]", r->peak_alloc >= 0 ? alloc : "unknown",
                r->peak_reserved >= 0 ? reserved : "unknown");
    char device[200] = "";
    if (r->nvml_device_only) device_text(r, device, sizeof device);
    fprintf(stderr, "; nvml %s; memory %s; loss %s\n",
            !r->sampled         ? "not sampled"
            : device[0]         ? device
            : r->peak_nvml > 0  ? nvml
            : peak_from_steps   ? "saw none of it" /* the peak is known: no advice needed */
                                : "saw none of it (a shorter --interval, or --torch)",
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
        if (r->attempts_note[0]) fprintf(stderr, "oomlab run: %s: %s\n", r->id, r->attempts_note);
        if (r->rank_rows)
            fprintf(stderr, "oomlab run: %s: per rank: oomlab table --ranks%s%s%s\n", r->id,
                    r->rank_logs ? "; logs/" : "", r->rank_logs ? r->id : "", r->rank_logs ? "_rankN.log" : "");
    }
    if (torch != TORCHHOOK_OFF && r->torch_steps == 0) /* asked for, and silent: say why it may be */
        fprintf(stderr, "oomlab run: %s: --torch: the hook recorded no optimizer step (torch not imported, "
                        "no CUDA, python -I/-E/-S ignoring PYTHONPATH, or a command that is not python)\n", r->id);
    host_kill_text(r);
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
    if (off && !strcmp(off, "off")) return 0;
    if (!launcher_is_rank(info)) { /* an sbatch script's run: its job, for the row */
        if (*info->job_id) a->o.job_id = info->job_id;
        return 0;
    }
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

/* ---- --on-oom: the next attempt (lib/onoom) ---- */

/* The user's own --set key for a ledger field (0 batch, 1 seq, 3 accum,
 * 4 ckpt), so {KEY} keeps working; else oomlab's name for it. */
static const char *user_key(const struct run_args *a, int field, const char *fallback)
{
    for (size_t i = 0; i < a->n_user_sets; i++)
        if (runcfg_key_field(a->keys[i]) == field) return a->keys[i];
    return fallback;
}

static void onoom_keys_of(const struct run_args *a, struct onoom_keys *k)
{
    k->batch = user_key(a, 0, "device_batch_size");
    k->seq = user_key(a, 1, "max_seq_len");
    k->accum = user_key(a, 3, "grad_accum");
    k->ckpt = user_key(a, 4, "gradient_checkpointing");
}

/* Retrying only helps when the change reaches the command. 0 or EXIT_USAGE. */
static int onoom_setup(struct run_args *a, const struct runcfg *cfg)
{
    struct oomlab_err err = {{0}};
    if (onoom_parse(a->on_oom, &a->policy, &err) < 0 || onoom_check(a->policy, cfg, &err) < 0)
        return cmd_usage_error("run", "%s", err.msg);
    size_t argc = 0;
    while (a->o.argv[argc]) argc++;
    struct onoom_keys k;
    onoom_keys_of(a, &k);
    const char *need[2] = {a->policy == ONOOM_HALVE_BATCH ? k.batch : a->policy == ONOOM_HALVE_SEQ ? k.seq : k.ckpt,
                           a->policy == ONOOM_HALVE_BATCH ? k.accum : NULL};
    if (argsubst_uses(a->o.argv, argc, "config")) return 0;
    for (size_t i = 0; i < 2; i++)
        if (need[i] && !argsubst_uses(a->o.argv, argc, need[i]))
            return cmd_usage_error("run", "--on-oom %s: the command must read the change: put {config} "
                                          "(or {%s}) in its arguments", a->on_oom, need[i]);
    return 0;
}

/* "ID-a2" after a given --id, else the next free runNNN. */
static void attempt_id(struct run_args *a, int attempt)
{
    if (!a->first_id) return;
    snprintf(a->id_buf, sizeof a->id_buf, "%.50s-a%d", a->first_id, attempt);
    a->o.id = a->id_buf;
}

/* The sets for the next attempt: the user's, then the change (a later
 * --set of the same key wins), the note linking it to its parent. */
static void apply_step(struct run_args *a, const struct onoom_step *st, const char *parent, int attempt)
{
    a->n_sets = a->n_user_sets;
    for (size_t i = 0; i < st->n_sets && a->n_sets < MAX_SETS; i++) {
        snprintf(a->our_sets[i], sizeof a->our_sets[i], "%s", st->sets[i]);
        a->sets[a->n_sets++] = a->our_sets[i];
    }
    snprintf(a->note_buf, sizeof a->note_buf, "on-oom %s attempt %d, parent %s: %s%s%.300s",
             onoom_name(a->policy), attempt, parent, st->what, a->user_note ? "; " : "",
             a->user_note ? a->user_note : "");
    a->o.note = a->note_buf;
    attempt_id(a, attempt);
}

static void run_args_release(struct run_args *a, struct runcfg *cfg);

/* One attempt: config, run, summary. 0 with res, or an exit code. */
static int attempt(struct run_args *a, struct runcfg *cfg, struct runexec_result *res)
{
    struct oomlab_err err = {{0}};
    int rc = load_config(a, cfg);
    if (rc) return rc;
    a->warned = true;
    if (a->live.prom_dir || a->live.stop_after) {
        live_release(&a->live);
        if (live_init(&a->live, &err) < 0) return cmd_usage_error("run", "%s", err.msg);
        a->o.live = live_tick;
        a->o.live_ctx = &a->live;
    }
    if (runexec(&a->o, res, &err) < 0) {
        int code = res->exec_failed                    ? res->exit_code
                   : res->id_taken || res->dir_failed ? EXIT_USAGE /* bad --dir / id: nothing written */
                                                      : EXIT_ERROR;
        return cmd_fail("run", &err, code);
    }
    summary(res, a->o.dir, a->o.torch);
    if (a->o.quiet) failure_tail(res);
    return 0;
}

static int exit_of(const struct runexec_result *res)
{
    /* The child's code wins; a clean run whose records failed is an error. */
    if (res->exit_code == 0 && (!res->recorded || res->problem[0])) return EXIT_ERROR;
    return res->exit_code;
}

/* --pty: the command's stdin is the new terminal, where nothing is typed;
 * what is piped or redirected to oomlab never reaches it, and a command
 * that reads its input waits (`echo y | oomlab run --pty -- cmd` hung). */
static void pty_stdin_note(void)
{
    struct stat st;
    if (fstat(STDIN_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISREG(st.st_mode) || S_ISSOCK(st.st_mode)))
        fprintf(stderr, "oomlab run: note: --pty: the command's input is the new terminal, where nothing is typed; "
                        "what is piped to oomlab does not reach it (a command that reads it waits)\n");
}

/* A key PyTorch's allocator does not know stops the program at its first
 * CUDA allocation (lib/allocconf, as doctor says of the environment): say
 * so before the run, not after the model has loaded. */
static void alloc_conf_warning(const char *value)
{
    char says[400], near[200];
    if (!allocconf_unknown_said(value, says, sizeof says)) return;
    bool sugg = allocconf_suggest(value, near, sizeof near) > 0;
    fprintf(stderr, "oomlab run: warning: --alloc-conf: %s%s%s%s\n", says, sugg ? "; did you mean " : "",
            sugg ? near : "", sugg ? "?" : "");
}

int cmd_run(int argc, char **argv)
{
    struct run_args a;
    int rc = parse_args(&a, argc, argv);
    if (rc != CMD_CONTINUE) return rc;
    struct oomlab_err err = {{0}};
    if (a.o.id && ledger_id_check_new(a.o.id, &err) < 0) return cmd_fail("run", &err, EXIT_USAGE);
    if (a.alloc_conf && setenv("PYTORCH_CUDA_ALLOC_CONF", a.alloc_conf, 1) < 0)
        return cmd_usage_error("run", "--alloc-conf: cannot set the environment");
    if (a.alloc_conf) alloc_conf_warning(a.alloc_conf);
    struct launcher_info rank_info;
    char rank_id[64];
    if ((rc = rank_setup(&a, &rank_info, rank_id, sizeof rank_id)) != 0) return rc;
    if (a.o.pty) pty_stdin_note();
    struct runcfg cfg;
    a.live.fd = -1;
    a.live.who = "run";
    a.n_user_sets = a.n_sets;
    a.first_id = a.o.id;
    a.user_note = a.o.note;
    if (a.on_oom) {
        rc = load_config(&a, &cfg);
        if (!rc) rc = onoom_setup(&a, &cfg);
        run_args_release(&a, &cfg);
        if (rc) return rc;
    } else if (a.floor || a.max_attempts) {
        return cmd_usage_error("run", "--on-oom-floor and --max-attempts go with --on-oom");
    }
    long max = a.on_oom ? (a.max_attempts ? a.max_attempts : 4) : 1;
    char trail[2048] = "";
    struct runexec_result res;
    for (int n = 1;; n++) {
        rc = attempt(&a, &cfg, &res);
        if (rc) break;
        rc = exit_of(&res);
        size_t tl = strlen(trail);
        snprintf(trail + tl, sizeof trail - tl, "%s%s %s%s", tl ? " -> " : "", res.id,
                 res.oom ? "OOM" : res.exit_code ? "failed" : "ok", res.interrupted ? ", interrupted" : "");
        /* Ctrl-C or scancel's SIGTERM while an attempt ran (its OOM already
         * logged, the job hung on its peers): the user asked to stop, not
         * for the next attempt */
        if (!a.on_oom || !res.oom || n >= max || res.interrupted) {
            char sig[32];
            if (a.on_oom && res.oom && res.interrupted)
                fprintf(stderr, "oomlab run: on-oom: no attempt %d: %s was interrupted (%s)\n", n + 1, res.id,
                        child_signal_name(res.forwarded_signal, sig, sizeof sig));
            else if (a.on_oom && res.oom)
                fprintf(stderr, "oomlab run: on-oom: stopped after --max-attempts %ld\n", max);
            break;
        }
        struct onoom_step st;
        struct onoom_keys k;
        onoom_keys_of(&a, &k);
        int next = onoom_next(a.policy, &cfg, a.floor, &k, &st, &err);
        if (next != 0) {
            fprintf(stderr, "oomlab run: on-oom: nothing left to try: %s\n", next > 0 ? st.what : err.msg);
            break;
        }
        char parent[64];
        snprintf(parent, sizeof parent, "%s", res.id);
        apply_step(&a, &st, parent, n + 1);
        fprintf(stderr, "oomlab run: on-oom: attempt %d: %s\n", n + 1, st.what);
        run_args_release(&a, &cfg);
    }
    run_args_release(&a, &cfg);
    live_release(&a.live);
    if (a.on_oom) fprintf(stderr, "oomlab run: on-oom %s: %s\n", a.on_oom, trail);
    return rc;
}
