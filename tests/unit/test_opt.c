/* Unit tests for lib/opt: a table becomes the getopt_long array, the --help
 * lines and a parse that stores each value where the table says; the
 * shared validators refuse with the one message every command prints. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/opt.h"

struct cli {
    bool json, quiet;
    int gpu;
    long steps;
    int64_t interval_ms;
    const char *dir, *torch;
    struct opt_list sets;
    int tied; /* -1, or the last of --tied/--untied */
};

#define AT(f) OPT_FIELD(struct cli, f)
static const struct opt_spec specs[] = {
    OPT_GPU_SPEC("only GPU N", AT(gpu)),
    OPT_INTERVAL_SPEC("sampling interval\n(default 500ms)", AT(interval_ms)),
    {.name = "steps", .metavar = "N", .parse = opt_int, AT(steps), .min = 1, .max = 100, .help = "steps"},
    OPT_SET_SPEC("set a key", AT(sets)),
    OPT_DIR_SPEC("where runs.csv is", AT(dir)),
    {.name = "quiet", .letter = 'q', .help = "say less", AT(quiet)},
    {.name = "json", .help = "JSON", AT(json)},
    {.name = "torch", .metavar = "MODE", .optional = true, .parse = opt_string, AT(torch), .help = "hook"},
    {0},
};
static const struct opt_hint hints[] = {{"stepss", "say it as --steps N"}, {0}};
static const struct opt_table table = {.command = "t", .usage = "usage: t\n\n", .epilogue = "end\n",
                                       .spec = specs, .stop_at_arg = true, .hints = hints};

/* argv from words (getopt may permute it: a writable copy). */
static enum opt_result parse(struct cli *c, int *first, struct oomlab_err *err, const char *const *words)
{
    static char store[32][64];
    static char *argv[33];
    int argc = 0;
    for (; words[argc]; argc++) {
        assert_true(argc < 32);
        snprintf(store[argc], sizeof store[argc], "%s", words[argc]);
        argv[argc] = store[argc];
    }
    argv[argc] = NULL;
    *c = (struct cli){.gpu = -1, .steps = -1, .interval_ms = 500, .dir = "."};
    memset(err, 0, sizeof *err);
    return opt_parse(&table, argc, argv, c, first, err);
}

static void test_getopt_array(void **state)
{
    (void)state;
    struct option out[OPT_SPECS_MAX + 2];
    char shorts[64];
    const struct option *o = opt_getopt(&table, out, OPT_SPECS_MAX + 2, shorts, sizeof shorts);
    assert_non_null(o);
    assert_string_equal(o[0].name, "gpu");
    assert_int_equal(o[0].has_arg, required_argument);
    assert_string_equal(o[5].name, "quiet");
    assert_int_equal(o[5].has_arg, no_argument);
    assert_int_equal(o[7].has_arg, optional_argument);
    assert_string_equal(o[8].name, "help"); /* added by the layer */
    assert_null(o[9].name);
    assert_string_equal(shorts, "+:hq");
    assert_null(opt_getopt(&table, out, 5, NULL, 0)); /* does not fit */
}

static void test_help_text(void **state)
{
    (void)state;
    char buf[2048];
    assert_int_equal(opt_help(&table, buf, sizeof buf), 0);
    assert_string_equal(buf, "usage: t\n\n"
                             "  --gpu N          only GPU N\n"
                             "  --interval DUR   sampling interval\n"
                             "                   (default 500ms)\n"
                             "  --steps N        steps\n"
                             "  --set KEY=VALUE  set a key\n"
                             "  --dir DIR        where runs.csv is\n"
                             "  -q, --quiet      say less\n"
                             "  --json           JSON\n"
                             "  --torch[=MODE]   hook\n"
                             "end\n");
    assert_int_equal(opt_help(&table, buf, 40), -1); /* too small: refused, not cut */
}

/* A help line that would pass 80 columns: that option's help is refilled
 * to fit (before, it was printed as written, 84 columns wide); one that
 * fits keeps its own line breaks. */
static void test_help_refilled_to_80(void **state)
{
    (void)state;
    static const struct opt_spec wide_specs[] = {
        {.name = "compile-loss", .metavar = "auto|yes|no",
         .help = "cross-entropy under torch.compile (--trainer torchtitan: its loss_fn,\ncompiled)"},
        {.name = "near", .metavar = "PCT", .help = "kept as\nwritten"},
        {0},
    };
    static const struct opt_table wide = {.command = "t", .usage = "usage: t\n", .spec = wide_specs};
    char buf[2048];
    assert_int_equal(opt_help(&wide, buf, sizeof buf), 0);
    assert_string_equal(buf, "usage: t\n"
                             "  --compile-loss auto|yes|no\n"
                             "              cross-entropy under torch.compile (--trainer torchtitan: its\n"
                             "              loss_fn, compiled)\n"
                             "  --near PCT  kept as\n"
                             "              written\n");
    for (const char *l = buf; *l;) {
        size_t len = strcspn(l, "\n");
        assert_true(len <= 80);
        l += len + (l[len] != '\0');
    }
}

static void test_parse_stores_values(void **state)
{
    (void)state;
    struct cli c;
    int first;
    struct oomlab_err err;
    const char *const w[] = {"t", "--gpu", "3", "--interval=2", "-q", "--set", "batch=8", "--set", "lr=1e-4",
                             "--torch=steps", "--json", "--dir", "out", "--", "python", "--gpu", "9", NULL};
    assert_int_equal(parse(&c, &first, &err, w), OPT_PARSED);
    assert_int_equal(c.gpu, 3);
    assert_int_equal(c.interval_ms, 2000); /* a bare number is seconds */
    assert_true(c.quiet);
    assert_true(c.json);
    assert_string_equal(c.torch, "steps");
    assert_string_equal(c.dir, "out");
    assert_int_equal(c.sets.n, 2);
    assert_string_equal(c.sets.item[1], "lr=1e-4");
    assert_int_equal(first, 14); /* "python": the command's own --gpu is not ours */
    const char *const stop[] = {"t", "--json", "train.py", "--steps", "0", NULL};
    assert_int_equal(parse(&c, &first, &err, stop), OPT_PARSED);
    assert_int_equal(first, 2);
    assert_int_equal(c.steps, -1);
    const char *const help[] = {"t", "--json", "-h", NULL};
    assert_int_equal(parse(&c, &first, &err, help), OPT_HELP_ASKED);
}

/* A well-formed number over an unbounded field's range is "too large", not
 * "expected a whole number of at least 1" (estimate --seq 99999999999999999999). */
static void test_int_too_large(void **state)
{
    (void)state;
    struct oomlab_err err;
    long wide = 0;
    int narrow = 0;
    const struct opt_spec big = {.name = "max", .min = 1, .max = LLONG_MAX / 4};
    assert_int_equal(opt_int(&big, "99999999999999999999", &wide, sizeof wide, &err), -1);
    assert_string_equal(err.msg, "--max '99999999999999999999': too large a number");
    assert_int_equal(opt_int(&big, "3000000000000000000", &wide, sizeof wide, &err), -1);
    assert_string_equal(err.msg, "--max '3000000000000000000': too large a number");
    assert_int_equal(opt_int(&big, "3000000000", &narrow, sizeof narrow, &err), -1); /* over INT_MAX */
    assert_string_equal(err.msg, "--max '3000000000': too large a number");
    assert_int_equal(opt_int(&big, "0", &wide, sizeof wide, &err), -1);
    assert_string_equal(err.msg, "--max '0': expected a whole number of at least 1");
    assert_int_equal(opt_int(&big, "-99999999999999999999", &wide, sizeof wide, &err), -1);
    assert_string_equal(err.msg, "--max '-99999999999999999999': expected a whole number of at least 1");
    assert_int_equal(opt_int(&big, "1e99", &wide, sizeof wide, &err), -1);
    assert_string_equal(err.msg, "--max '1e99': expected a whole number of at least 1");
    assert_int_equal(opt_int(&big, "12", &wide, sizeof wide, &err), 0);
    assert_int_equal(wide, 12);
}

/* Each failure: one message, naming the option and the value. */
static void expect_failure(const char *const *words, const char *msg)
{
    struct cli c;
    int first;
    struct oomlab_err err;
    assert_int_equal(parse(&c, &first, &err, words), OPT_FAILED);
    assert_string_equal(err.msg, msg);
}

static void test_shared_messages(void **state)
{
    (void)state;
    expect_failure((const char *const[]){"t", "--gpu", "64", NULL},
                   "--gpu '64': expected a GPU index 0-63");
    expect_failure((const char *const[]){"t", "--gpu=x", NULL},
                   "--gpu 'x': expected a GPU index 0-63");
    expect_failure((const char *const[]){"t", "--interval", "5ms", NULL}, "--interval '5ms': at least 10ms");
    expect_failure((const char *const[]){"t", "--interval", "5min", NULL},
                   "--interval '5min': expected a duration such as 90, 500ms, 30s, 10m, 1.5h or 2d (a bare number is "
                   "seconds; see DURATIONS in oomlab(1))");
    /* a bare sampling interval above 10 (seconds) is refused as ambiguous; with a unit it is taken */
    expect_failure((const char *const[]){"t", "--interval", "100", NULL},
                   "--interval '100': a bare number is seconds, so that is 100 s between samples; write 100ms "
                   "for milliseconds, or 100s if seconds are meant");
    expect_failure((const char *const[]){"t", "--steps", "0", NULL}, "--steps '0': expected a whole number from 1 to 100");
    expect_failure((const char *const[]){"t", "--set", "batch", NULL}, "--set expects key=value, got 'batch'");
    expect_failure((const char *const[]){"t", "--dir", "", NULL}, "--dir wants a directory, got ''");
    expect_failure((const char *const[]){"t", "--gpu", NULL}, "--gpu needs a value");
    expect_failure((const char *const[]){"t", "--json=1", NULL}, "--json takes no value");
    expect_failure((const char *const[]){"t", "--bogus", NULL}, "unknown option '--bogus'");
    expect_failure((const char *const[]){"t", "-x", NULL}, "unknown option '-x'");
    /* a near miss or another tool's spelling gets what was meant (stranger16) */
    expect_failure((const char *const[]){"t", "--jsno", NULL}, "unknown option '--jsno'; did you mean --json?");
    expect_failure((const char *const[]){"t", "--quite", NULL}, "unknown option '--quite'; did you mean --quiet?");
    expect_failure((const char *const[]){"t", "--steps-max", "3", NULL},
                   "unknown option '--steps-max'; did you mean --steps?");
    expect_failure((const char *const[]){"t", "--stepss", NULL}, "unknown option '--stepss': say it as --steps N");
    expect_failure((const char *const[]){"t", "--xy", NULL}, "unknown option '--xy'"); /* not --gpu, --dir */
    expect_failure((const char *const[]){"t", "--s=1", NULL}, "'--s' is ambiguous (--steps, --set)");
}

static void test_set_list_is_capped(void **state)
{
    (void)state;
    const char *w[2 * OPT_LIST_MAX + 4] = {"t"};
    size_t n = 1;
    for (int i = 0; i <= OPT_LIST_MAX; i++) {
        w[n++] = "--set";
        w[n++] = "k=v";
    }
    w[n] = NULL;
    static char store[2 * OPT_LIST_MAX + 4][8];
    static char *argv[2 * OPT_LIST_MAX + 4];
    for (size_t i = 0; i < n; i++) {
        snprintf(store[i], sizeof store[i], "%s", w[i]);
        argv[i] = store[i];
    }
    struct cli c = {0};
    struct oomlab_err err;
    int first;
    assert_int_equal(opt_parse(&table, (int)n, argv, &c, &first, &err), OPT_FAILED);
    assert_string_equal(err.msg, "at most 64 --set");
    assert_int_equal(c.sets.n, OPT_LIST_MAX);
}

/* Two flags into one int: the last one wins; a group line heads its rows in --help. */
static const struct opt_spec tied_specs[] = {
    {.name = "json", .help = "JSON", AT(json)},
    {.name = "tied", .help = "shared", AT(tied), .flag_value = 1, .group = "model:"},
    {.name = "untied", .help = "not shared", AT(tied), .flag_value = 0},
    {0},
};
static const struct opt_table tied_table = {.command = "t", .usage = "usage: t\n", .spec = tied_specs};

static int tied_of(const char *const *words)
{
    char store[8][16], *argv[9];
    int argc = 0;
    for (; words[argc]; argc++) {
        snprintf(store[argc], sizeof store[argc], "%s", words[argc]);
        argv[argc] = store[argc];
    }
    argv[argc] = NULL;
    struct cli c = {.tied = -1};
    struct oomlab_err err;
    int first;
    assert_int_equal(opt_parse(&tied_table, argc, argv, &c, &first, &err), OPT_PARSED);
    return c.tied;
}

/* `watch --csv --count 5`: getopt takes "--count" as the file name and the
 * user gets a file named --count (report -o --json wrote one). An option of
 * the table given as a separate value word is refused; the joined form stays
 * possible, and a value that only starts with a dash still passes. */
static void test_value_is_an_option(void **state)
{
    (void)state;
    struct cli c;
    int first;
    struct oomlab_err err;
    const char *const w[] = {"t", "--dir", "--json", "x", NULL};
    assert_int_equal(parse(&c, &first, &err, w), OPT_FAILED);
    assert_string_equal(err.msg, "--dir needs a value, got the option '--json' (for a value of that name: "
                                 "--dir=--json)");
    const char *const eq[] = {"t", "--dir", "--steps=3", NULL};
    assert_int_equal(parse(&c, &first, &err, eq), OPT_FAILED);
    const char *const letter[] = {"t", "--dir", "-q", NULL};
    assert_int_equal(parse(&c, &first, &err, letter), OPT_FAILED);
    const char *const help[] = {"t", "--dir", "--help", NULL};
    assert_int_equal(parse(&c, &first, &err, help), OPT_FAILED);
    const char *const joined[] = {"t", "--dir=--json", "x", NULL};
    assert_int_equal(parse(&c, &first, &err, joined), OPT_PARSED);
    assert_string_equal(c.dir, "--json");
    const char *const other[] = {"t", "--dir", "--nope", "--torch=x", NULL}; /* not ours: a value */
    assert_int_equal(parse(&c, &first, &err, other), OPT_PARSED);
    assert_string_equal(c.dir, "--nope");
    const char *const dash[] = {"t", "--dir", "-", NULL};
    assert_int_equal(parse(&c, &first, &err, dash), OPT_PARSED);
    assert_string_equal(c.dir, "-");
}

static void test_int_flags_and_groups(void **state)
{
    (void)state;
    assert_int_equal(tied_of((const char *[]){"t", "--untied", NULL}), 0);
    assert_int_equal(tied_of((const char *[]){"t", "--untied", "--tied", NULL}), 1);
    assert_int_equal(tied_of((const char *[]){"t", "--json", NULL}), -1);
    char help[1024];
    assert_int_equal(opt_help(&tied_table, help, sizeof help), 0);
    assert_string_equal(help, "usage: t\n"
                              "  --json    JSON\n"
                              "model:\n"
                              "  --tied    shared\n"
                              "  --untied  not shared\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_getopt_array),
        cmocka_unit_test(test_help_text),
        cmocka_unit_test(test_help_refilled_to_80),
        cmocka_unit_test(test_parse_stores_values),
        cmocka_unit_test(test_shared_messages),
        cmocka_unit_test(test_int_too_large),
        cmocka_unit_test(test_set_list_is_capped),
        cmocka_unit_test(test_int_flags_and_groups),
        cmocka_unit_test(test_value_is_an_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
