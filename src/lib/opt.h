/* opt: the one option layer. A command describes its options once, in a
 * table of struct opt_spec (long name, short letter, metavar, help text,
 * validator, where the value goes); from that table come the getopt_long
 * array (opt_getopt: parsing and `oomlab completion`), the options part of
 * --help (opt_help) and the parse itself (opt_parse), with the same
 * messages in every command. Pure: fills buffers and a struct oomlab_err,
 * prints nothing; src/main.c's cmd_options() prints help and errors.
 * Nothing is allocated: values point into argv or into the caller's struct.
 *
 * Converting a command (mechanical; every command is converted):
 *   1. Put every option value in one struct (struct X_cli), defaults set
 *      before parsing. Flags are bool; counts long long, long or int;
 *      durations int64_t milliseconds; --set a struct opt_list.
 *   2. Replace the getopt array and the switch by a table, one row each:
 *        #define AT(f) OPT_FIELD(struct X_cli, f)
 *        static const struct opt_spec specs[] = {
 *            OPT_GPU_SPEC("sample only GPU N", AT(gpu)),
 *            OPT_INTERVAL_SPEC("NVML sampling interval (default 500ms)", AT(interval_ms)),
 *            {.name = "note", .metavar = "TEXT", .help = "...", .parse = opt_string, AT(note)},
 *            {.name = "quiet", .letter = 'q', .help = "...", AT(quiet)}, (a flag: no .parse)
 *            {0}};
 *      A value the shared validators do not cover gets a static validator
 *      with opt_parse_fn's signature in the command's own file (--torch,
 *      --headroom, --kill PID). --help/-h is added by the layer.
 *   3. The usage line and prose above the options go in .usage, the lines
 *      after them (DUR:, Exit:) in .epilogue; the option lines of the old
 *      hand-written help go (opt_help writes them from the table).
 *   4. static const struct opt_table opt_table = {.command = "X", .usage =
 *      ..., .epilogue = ..., .spec = specs, .stop_at_arg = true (run: the
 *      rest is CMD)}; (named opt_table: a `table` would shadow locals).
 *      Parse with `int first, rc = cmd_options(&opt_table, argc, argv, &cli,
 *      &first); if (rc != CMD_CONTINUE) return rc;` (cmd/cmd.h), keep only
 *      the checks between options (--max below --min) and the arguments
 *      from argv[first] in the command; export the getopt array with
 *      CMD_OPTIONS(cmd_X_options, opt_table). For run: its --gpu, --interval,
 *      --timeout, --grace, --set, --config and --dir rows are the OPT_*_SPEC
 *      macros below, and check_sets goes (opt_set checks each --set).
 * Golden cases stay the same except where a message becomes the shared one. */
#ifndef OOMLAB_OPT_H
#define OOMLAB_OPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/units.h" /* UNITS_DURATION_MAX_MS */

#define OPT_SPECS_MAX 96      /* options per command (+ --help) */
#define OPT_LIST_MAX 64 /* values of a repeatable option (--set) */

struct opt_spec;
/* A validator: check val (NULL for a flag or an absent optional value) and
 * store it at dst (the field OPT_FIELD named, dst_size bytes). 0, or -1
 * with a message that names the option. */
typedef int opt_parse_fn(const struct opt_spec *o, const char *val, void *dst, size_t dst_size,
                         struct oomlab_err *err);

struct opt_spec {
    const char *name;     /* long name without "--"; NULL ends the table */
    int letter;           /* short option ('q' for -q), or 0 */
    const char *metavar;  /* "N", "DUR", "FILE"; NULL for a flag */
    const char *help;     /* one line, or lines split by '\n' (indented for you) */
    opt_parse_fn *parse;  /* NULL: a flag, the bool at offset is set true */
    bool optional;        /* the value only as --name=VALUE (--torch[=MODE]) */
    size_t offset, size;  /* OPT_FIELD: where in the command's struct */
    long long min, max;   /* the range for opt_int, opt_duration (ms) */
    long long bare_max;   /* opt_duration: a bare number (seconds) above this many ms is
                             refused as ambiguous (--interval 100: 100 s or 100 ms?); 0: none */
    int flag_value;       /* a flag whose field is an int stores this (--tied-embeddings 1,
                             --untied-embeddings 0 into one int: the last one given wins) */
    const char *group;    /* --help prints this line above the row ("workload:") */
    const char *zero_say; /* opt_duration: a value of 0 (timeout(1) reads it as "no limit")
                             is refused with this said after "at least ..."; NULL: nothing */
};

#define OPT_FIELD(type, field) .offset = offsetof(type, field), .size = sizeof(((type *)0)->field)

/* Another tool's spelling and what to write here instead, for the message
 * on an unknown option ("--model" -> "MODEL is the first argument"). */
struct opt_hint {
    const char *word; /* without "--" */
    const char *say;
};
struct opt_table {
    const char *command;         /* "probe": messages say "oomlab probe: ..." */
    const char *usage;           /* --help before the options (usage line, prose) */
    const char *epilogue;        /* --help after them; may be NULL */
    const struct opt_spec *spec; /* ends with {0} */
    bool stop_at_arg; /* options end at the first argument (run/probe: the rest is CMD) */
    const struct opt_hint *hints; /* may be NULL; ends with {0} */
};

/* The repeatable option's values, in order (pointers into argv). */
struct opt_list {
    const char *item[OPT_LIST_MAX];
    size_t n;
};

/* The one result of parsing. */
enum opt_result {
    OPT_PARSED,   /* parsed; *first_arg indexes the first argument left */
    OPT_HELP_ASKED, /* --help or -h was given: print it, exit 0 */
    OPT_FAILED,  /* err says which option and why: exit 2 */
};

/* Parse argv[1..] into cli (a struct holding the fields the table names,
 * defaults already set). getopt_long underneath: --name VALUE, --name=VALUE,
 * -q, unambiguous prefixes, `--` ends the options; with stop_at_arg the
 * first argument ends them too, else arguments and options may mix. */
enum opt_result opt_parse(const struct opt_table *t, int argc, char **argv, void *cli,
                          int *first_arg, struct oomlab_err *err);

/* The getopt_long array of the table (with --help), ended by {0}, into out
 * (cap entries, OPT_SPECS_MAX + 2 is always enough); NULL when it does not fit.
 * The short letters (with ':' as getopt wants) go to shorts when not NULL. */
const struct option *opt_getopt(const struct opt_table *t, struct option *out, size_t cap,
                                char *shorts, size_t shorts_size);

/* The whole --help text: usage, the option lines made from the table
 * (aligned, "  -q, --quiet  ..."), epilogue. NUL-terminated; -1 when it
 * does not fit in size bytes. */
int opt_help(const struct opt_table *t, char *buf, size_t size);

/* ---- the shared validators: one rule and one message per kind ---------- */
opt_parse_fn opt_string;   /* any text; stored as const char * */
opt_parse_fn opt_int;      /* a whole number in [min, max] (int, long or long long) */
opt_parse_fn opt_gpu;      /* --gpu N: an NVML index 0..OPT_GPU_MAX, into an int */
opt_parse_fn opt_duration; /* lib/units durations (bare number = seconds), ms in [min, max] */
opt_parse_fn opt_set;      /* --set KEY=VALUE: checked as runcfg reads it, appended to an opt_list */
opt_parse_fn opt_config;   /* --config FILE: a file name (read later by sys/cfgfile) */
opt_parse_fn opt_dir;      /* --dir DIR: a directory name short enough for DIR/logs/ID_mem.csv */

/* GPU indexes: as many as a memory CSV holds (lib/memcsv). */
#define OPT_GPU_MAX 63
/* The shared limits of the duration options (DURATIONS in oomlab(1)). */
#define OPT_INTERVAL_MIN_MS 10
#define OPT_INTERVAL_MAX_MS 3600000
/* A sampling interval written as a bare number above 10 (seconds) is more
 * likely meant as milliseconds: ask for the unit. */
#define OPT_INTERVAL_BARE_MAX_MS 10000
#define OPT_GRACE_MIN_MS 1
#define OPT_GRACE_MAX_MS 3600000

/* The rows every command spells the same way (help text is the command's). */
#define OPT_GPU_SPEC(helptext, field) \
    {.name = "gpu", .metavar = "N", .help = helptext, .parse = opt_gpu, field}
#define OPT_INTERVAL_SPEC(helptext, field)                                                   \
    {.name = "interval", .metavar = "DUR", .help = helptext, .parse = opt_duration, field,   \
     .min = OPT_INTERVAL_MIN_MS, .max = OPT_INTERVAL_MAX_MS, .bare_max = OPT_INTERVAL_BARE_MAX_MS}
/* zerosay: what to write instead of --timeout 0 (which GNU timeout(1) reads as no limit). */
#define OPT_TIMEOUT_SPEC(helptext, field, zerosay)                                           \
    {.name = "timeout", .metavar = "DUR", .help = helptext, .parse = opt_duration, field,    \
     .min = 1, .max = UNITS_DURATION_MAX_MS, .zero_say = zerosay}
#define OPT_GRACE_SPEC(helptext, field)                                                      \
    {.name = "grace", .metavar = "DUR", .help = helptext, .parse = opt_duration, field,      \
     .min = OPT_GRACE_MIN_MS, .max = OPT_GRACE_MAX_MS}
#define OPT_SET_SPEC(helptext, field) \
    {.name = "set", .metavar = "KEY=VALUE", .help = helptext, .parse = opt_set, field}
#define OPT_CONFIG_SPEC(helptext, field) \
    {.name = "config", .metavar = "FILE", .help = helptext, .parse = opt_config, field}
#define OPT_DIR_SPEC(helptext, field) \
    {.name = "dir", .metavar = "DIR", .help = helptext, .parse = opt_dir, field}

#endif
