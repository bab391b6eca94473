/* oomlab: git-style dispatcher. One table of subcommands; `oomlab CMD ...`
 * calls cmd_CMD with argv shifted so argv[0] is the command name. */
#include "cmd/cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/strbuf.h" /* strbuf_near */
#include "sys/fsutil.h"
#include "sys/torchhook.h"
#include "version.h" /* generated: OOMLAB_COMMIT, OOMLAB_BUILD_KIND */

static const struct cmd_entry commands[] = {
    {"diagnose", cmd_diagnose, "find the OOM in a training log, explain it, plan the fix", cmd_diagnose_options},
    {"run", cmd_run, "run a training command under a run id: log, GPU memory, ledger row", cmd_run_options},
    {"table", cmd_table, "show the run ledger, flagging runs on the edge", cmd_table_options},
    {"compare", cmd_compare, "compare two runs: what changed, peak memory, loss trend", cmd_compare_options},
    {"estimate", cmd_estimate, "memory budget of a model and workload against the card", cmd_estimate_options},
    {"probe", cmd_probe, "find the largest batch (or sequence) that fits, by real short runs", cmd_probe_options},
    {"ps", cmd_ps, "who holds GPU memory right now; flag stale holders", cmd_ps_options},
    {"watch", cmd_watch, "live GPU memory with peaks; CSV, JSON Lines, Prometheus", cmd_watch_options},
    {"report", cmd_report, "the runs as one HTML page: memory, per-step peaks, loss, the OOM", cmd_report_options},
    {"doctor", cmd_doctor, "what this machine has for oomlab: NVML, GPUs, torch, hook, ledger", cmd_doctor_options},
    {"snapshot", cmd_snapshot, "read a PyTorch memory snapshot: what holds the memory, by stack", cmd_snapshot_options},
    {"guard", cmd_guard, "CI smoke: a short run's peak vs a memory budget; JUnit, annotations", cmd_guard_options},
    {"lint", cmd_lint, "check training code and launch scripts for memory mistakes", cmd_lint_options},
    {"completion", cmd_completion, "print a bash, zsh or fish completion script", cmd_completion_options},
};

const struct cmd_entry *cmd_commands(size_t *n)
{
    *n = sizeof commands / sizeof commands[0];
    return commands;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: oomlab <command> [options] [args]\n\n"
               "Take the guesswork out of GPU out-of-memory failures.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'oomlab <command> --help' for a command's options; man oomlab-<command>.\n"
               "Exit codes: 0 ok / nothing found, 1 found (OOM, does not fit), 2 usage or\n"
               "input error, 3 runtime error, 4 no NVML; run/probe pass the child's code;\n"
               "guard 10-14 (over budget, edge, OOM, failed, unmeasured).\n");
}

int cmd_usage_error(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "oomlab %s: ", name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'oomlab %s --help'.\n", name);
    return EXIT_USAGE;
}

int cmd_options(const struct opt_table *t, int argc, char **argv, void *cli, int *first_arg)
{
    struct oomlab_err err = {{0}};
    switch (opt_parse(t, argc, argv, cli, first_arg, &err)) {
    case OPT_PARSED: return CMD_CONTINUE;
    case OPT_HELP_ASKED: {
        static char help[16384];
        if (opt_help(t, help, sizeof help) < 0) return cmd_usage_error(t->command, "help text too long");
        fputs(help, stdout);
        return EXIT_OK;
    }
    case OPT_FAILED: break;
    }
    return cmd_usage_error(t->command, "%s", err.msg);
}

int cmd_opt_torch(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    if (size != sizeof(enum torchhook_mode)) return oomlab_err_set(err, "--%s: not a mode field (opt table)", o->name);
    return torchhook_mode_parse(val, dst, err);
}

int cmd_fail(const char *name, const struct oomlab_err *err, int code)
{
    fprintf(stderr, "oomlab %s: %s\n", name, err && err->msg[0] ? err->msg : "failed");
    return code;
}

/* Commands whose exit code is a verdict on a command they ran (CI steps
 * read it): a reader of stdout that left does not take that code away. */
static const char *const verdict_commands[] = {"run", "guard", "probe"};

static bool keeps_verdict(const char *name)
{
    for (size_t i = 0; i < sizeof verdict_commands / sizeof verdict_commands[0]; i++)
        if (!strcmp(verdict_commands[i], name)) return true;
    return false;
}

/* The one check of what went to stdout (a full disk, a closed pipe): a
 * command that succeeded but whose output was lost exits 3, not 0. */
/* Output that could not be written: said, exit 3. A reader that stopped
 * reading (`oomlab table | head -1`) is no error: oomlab ends as coreutils
 * and git do there, by SIGPIPE, silently (141 in a shell, which `set -o
 * pipefail` scripts already expect of `git log | head`); run, guard and
 * probe instead exit with their verdict's code (`oomlab guard ... | head -1`
 * in a CI step must still fail the step on an over-budget smoke; probe's
 * found / nothing fits likewise). Commands
 * leave a failed stdout to this one place. */
static int finish(const char *name, int rc)
{
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int write_errno = errno;
    if (!failed) return rc;
    if (fsutil_reader_gone(STDOUT_FILENO) || write_errno == EPIPE) {
        if (keeps_verdict(name)) return rc;
        fflush(NULL); /* any file a command left open: a signal would drop its buffer */
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
    if (rc != EXIT_OK && rc != EXIT_FOUND) return rc; /* a failed command has said why already */
    fprintf(stderr, "oomlab %s: cannot write the output: %s\n", name, strerror(write_errno));
    return EXIT_ERROR;
}

/* The command a word that is none most likely means: the one it begins
 * (diag, est), else a near miss (diagnosis, snapshots, estmate). NULL none. */
static const char *command_meant(const char *word)
{
    const char *found = NULL;
    size_t prefixed = 0, len = strlen(word);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (len >= 2 && !strncmp(commands[i].name, word, len) && prefixed++ == 0) found = commands[i].name;
    if (prefixed == 1) return found;
    struct strbuf_near near = STRBUF_NEAR_INIT(word, 2);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) strbuf_near_offer(&near, commands[i].name);
    return near.pick;
}

/* "'x' is not a command", with the one meant when there is one. */
static int not_a_command(const char *word)
{
    const char *meant = command_meant(word);
    if (meant)
        fprintf(stderr, "oomlab: '%s' is not a command; did you mean 'oomlab %s'? See 'oomlab --help'.\n", word,
                meant);
    else
        fprintf(stderr, "oomlab: '%s' is not a command. See 'oomlab --help'.\n", word);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    /* A closed pipe (`oomlab table | head`) must not kill us mid-command
     * (the child of `run`, a row half-recorded); writes then fail with EPIPE
     * and finish() ends us by SIGPIPE once the command is done. */
    fsutil_std_fds_open(); /* before any file is opened */
    signal(SIGPIPE, SIG_IGN);
    /* Past `ulimit -f` a write fails with EFBIG and is reported ("log
     * incomplete: File too large") instead of killing us before the row. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
        if (argc > 2 && strcmp(name, "help") == 0) {
            char *help_argv[] = {argv[2], "--help", NULL};
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (!strcmp(commands[i].name, argv[2])) return finish(argv[2], commands[i].run(2, help_argv));
            return not_a_command(argv[2]); /* `oomlab help diag` printed the usage and exited 0 */
        }
        usage(stdout);
        return finish(name, EXIT_OK); /* `oomlab --help > /dev/full` exited 0 */
    }
    if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
        printf("oomlab %s (commit %s, %s build)\n", OOMLAB_VERSION, OOMLAB_COMMIT, OOMLAB_BUILD_KIND);
        return finish(name, EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name)) return finish(name, commands[i].run(argc - 1, argv + 1));
    return not_a_command(name);
}
