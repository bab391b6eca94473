/* cmd: the subcommands' entry points and the one exit-code table.
 * Each src/cmd/NAME.c exports cmd_NAME(argc, argv) with argv[0] = "NAME";
 * it parses options, calls the library, renders, and returns an exit code. */
#ifndef OOMLAB_CMD_H
#define OOMLAB_CMD_H

#include "lib/err.h"

/* Exit codes (documented in README and oomlab(1)). `run` and `probe` pass
 * the child's own code through: 126 cannot execute, 127 not found,
 * 128+N killed by signal N. */
enum exit_code {
    EXIT_OK = 0,       /* success; diagnose: no GPU OOM found; estimate: fits */
    EXIT_FOUND = 1,    /* diagnose: a GPU OOM found; estimate: does not fit;
                          probe: nothing fits */
    EXIT_USAGE = 2,    /* bad option or argument, unreadable or malformed input */
    EXIT_ERROR = 3,    /* runtime failure: cannot write, cannot start, probe stopped */
    EXIT_NO_NVML = 4,  /* ps/watch: NVML (driver, GPU) not available */
};

int cmd_diagnose(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_guard(int argc, char **argv); /* its own exit codes: lib/gate.h */

/* The command table (src/main.c): name, entry point, one-line summary, and
 * the command's own getopt table (what `oomlab completion` is made from). */
#include <getopt.h>
#include <stddef.h>
struct cmd_entry {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const struct option *(*options)(void);
};
const struct cmd_entry *cmd_commands(size_t *n);
int cmd_completion(int argc, char **argv);
const struct option *cmd_completion_options(void);
const struct option *cmd_diagnose_options(void);
const struct option *cmd_run_options(void);
const struct option *cmd_table_options(void);
const struct option *cmd_compare_options(void);
const struct option *cmd_estimate_options(void);
const struct option *cmd_probe_options(void);
const struct option *cmd_ps_options(void);
const struct option *cmd_watch_options(void);
const struct option *cmd_report_options(void);
const struct option *cmd_doctor_options(void);
const struct option *cmd_snapshot_options(void);
const struct option *cmd_lint_options(void);
const struct option *cmd_guard_options(void);

/* The option layer's glue (lib/opt.h says how a command uses it): parse
 * argv with table t into cli; prints --help to stdout or the one-line
 * error to stderr. Returns CMD_CONTINUE with *first_arg set, or the exit
 * code to return (EXIT_OK after --help, EXIT_USAGE). */
#include "lib/opt.h"
/* What to change when host RAM ran out (run's OOM-killer line, diagnose's
 * torchelastic SIGKILL): one wording for both. */
#define CMD_HOST_RAM_FIXES "fewer or lighter DataLoader workers, low_cpu_mem_usage/mmap loading, or more RAM"

#define CMD_CONTINUE (-1)
int cmd_options(const struct opt_table *t, int argc, char **argv, void *cli, int *first_arg);
/* --torch[=MODE] (sys/torchhook's modes): the one row of run, guard and
 * probe; the value goes into an enum torchhook_mode. */
opt_parse_fn cmd_opt_torch;
#define CMD_TORCH_SPEC(helptext, field)                                                  \
    {.name = "torch", .metavar = "MODE", .optional = true, .help = helptext,            \
     .parse = cmd_opt_torch, field}
/* Defines `const struct option *fn(void)`: the table's getopt array, for
 * the command table (completion). */
#define CMD_OPTIONS(fn, table)                                                     \
    const struct option *fn(void)                                                  \
    {                                                                              \
        static struct option built[OPT_SPECS_MAX + 2];                                   \
        return opt_getopt(&(table), built, sizeof built / sizeof *built, NULL, 0); \
    }

/* "oomlab NAME: <msg>\nTry 'oomlab NAME --help'." on stderr; returns EXIT_USAGE. */
int cmd_usage_error(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "oomlab NAME: <err->msg>" on stderr; returns code. */
int cmd_fail(const char *name, const struct oomlab_err *err, int code);

#endif
