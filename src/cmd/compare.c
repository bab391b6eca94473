/* compare: `oomlab compare A B [--dir DIR] [--json]` — which config columns
 * changed between two ledger rows (warning when more than one did: the
 * one-variable rule), the change in peak memory and loss trend, OOM before
 * and after, and whether the effective batch was kept. */
#include "cmd/cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ledger_io.h"
#include "lib/ledger.h"
#include "render/color.h"
#include "render/json.h"
#include "render/table.h"

static const char usage_head[] =
    "usage: oomlab compare A B [--dir DIR] [--json]\n"
    "\n"
    "Compare runs A and B of DIR/runs.csv (the latest row of each id): the config\n"
    "columns that changed (a warning when more than one did), peak memory, OOM,\n"
    "loss trend, and whether the effective batch was kept.\n"
    "\n";

struct diff {
    const struct ledger_row *a, *b;
    enum ledger_col changed[LEDGER_NCOLS];
    size_t n_changed;
    bool traded;  /* batch traded for accumulation with the effective batch kept */
    bool one_var; /* the one-variable rule held */
    double peak_a, peak_b;
    double eff_a, eff_b;
    double tok_a, tok_b; /* tokens per optimizer step: effective batch x seq */
    char env_changed[1024]; /* NUL-separated names of environment variables that changed */
    size_t n_env;
    bool env_unknown;     /* one row's env was never recorded: its names are no known change */
    size_t n_env_counted; /* n_env, or 0 where env_unknown */
    bool color;
};

static bool env_not_recorded(const struct ledger_row *r)
{
    return !*r->cell[LEDGER_ENV] && !ledger_recorded(r, LEDGER_ENV);
}

/* The guide's first move halves the batch and raises grad_accum to keep the
 * effective batch: two columns, one decision. */
static void analyse(struct diff *d)
{
    d->n_changed = ledger_changed(d->a, d->b, d->changed, LEDGER_NCOLS);
    d->eff_a = ledger_effective_batch(d->a);
    d->eff_b = ledger_effective_batch(d->b);
    d->traded = d->n_changed == 2 && d->changed[0] == LEDGER_DEVICE_BATCH_SIZE &&
                d->changed[1] == LEDGER_GRAD_ACCUM && !isnan(d->eff_a) && d->eff_a == d->eff_b;
    d->n_env = ledger_env_changed(d->a->cell[LEDGER_ENV], d->b->cell[LEDGER_ENV], d->env_changed,
                                  sizeof d->env_changed);
    /* An environment variable (PYTORCH_CUDA_ALLOC_CONF...) is a variable
     * too, where both rows recorded theirs: against a row written under a
     * header without the env column, what the variable was is not known,
     * and no change is counted (left25). */
    d->env_unknown = env_not_recorded(d->a) || env_not_recorded(d->b);
    d->n_env_counted = d->env_unknown ? 0 : d->n_env;
    d->one_var = (d->n_changed <= 1 || d->traded) && d->n_changed + d->n_env_counted <= (d->traded ? 2 : 1);
    d->tok_a = d->eff_a * ledger_num(d->a, LEDGER_MAX_SEQ_LEN);
    d->tok_b = d->eff_b * ledger_num(d->b, LEDGER_MAX_SEQ_LEN);
    d->peak_a = ledger_peak_gb(d->a);
    d->peak_b = ledger_peak_gb(d->b);
}

/* Cells are printed cleaned of control characters (see render/table). */
static const char *cell(const struct ledger_row *r, enum ledger_col c)
{
    static char *slots[8]; /* a printf may use up to 8 cells */
    static unsigned next;
    char **slot = &slots[next++ % 8];
    free(*slot);
    *slot = table_clean(*r->cell[c] ? r->cell[c] : "-");
    return *slot ? *slot : "?";
}

static const char *oom_text(const struct ledger_row *r, char *buf, size_t size)
{
    int f = ledger_flag(r, LEDGER_OOM);
    if (f == 1) snprintf(buf, size, "yes (%s)", cell(r, LEDGER_OOM_STAGE));
    else snprintf(buf, size, "%s", f == 0 ? "no" : "unknown");
    return buf;
}

/* An empty cell of a column the row's ledger header lacks (written by an
 * older oomlab) was never recorded: not "unset", not "-". */
#define NOT_RECORDED "(not recorded)"

static const char *changed_cell(const struct ledger_row *r, enum ledger_col c)
{
    return !*r->cell[c] && !ledger_recorded(r, c) ? NOT_RECORDED : cell(r, c);
}

static const char *env_value(const struct ledger_row *r, const char *name, char *buf, size_t size)
{
    if (!*r->cell[LEDGER_ENV] && !ledger_recorded(r, LEDGER_ENV)) return snprintf(buf, size, NOT_RECORDED), buf;
    char *v = ledger_env_get(r->cell[LEDGER_ENV], name);
    char *clean = v ? table_clean(v) : NULL;
    snprintf(buf, size, "%s", clean ? clean : "(unset)");
    free(v);
    free(clean);
    return buf;
}

static void print_changes(const struct diff *d)
{
    if (d->n_changed + d->n_env_counted == 0) {
        const char *ca = d->a->cell[LEDGER_COMMAND], *cb = d->b->cell[LEDGER_COMMAND];
        size_t cmd_size = strlen(ca) + strlen(cb) + LEDGER_CHANGE_SLACK; /* whole, however long */
        char *cmd = malloc(cmd_size);
        if (!cmd) {
            printf("  changed: command (out of memory to show how)\n");
        } else if (ledger_command_change(ca, cb, cmd, cmd_size)) {
            char *clean = table_clean(cmd); /* the columns said nothing: the command did change */
            printf("  changed: command %s\n", clean ? clean : cmd);
            free(clean);
        } else {
            printf("  changed: nothing in batch, seq, dtype, accum, ckpt%s\n",
                   d->env_unknown ? "" : " or the environment");
        }
        free(cmd);
    }
    for (size_t i = 0; i < d->n_changed; i++)
        printf("  changed: %s %s -> %s\n", ledger_col_name(d->changed[i]), changed_cell(d->a, d->changed[i]),
               changed_cell(d->b, d->changed[i]));
    const char *name = d->env_changed;
    for (size_t i = 0; i < d->n_env && name < d->env_changed + sizeof d->env_changed && *name; i++) {
        char va[256], vb[256];
        printf("  %s: env %s %s -> %s%s\n", d->env_unknown ? "not recorded" : "changed", name,
               env_value(d->a, name, va, sizeof va), env_value(d->b, name, vb, sizeof vb),
               d->env_unknown ? " (not counted as a change)" : "");
        name += strlen(name) + 1;
    }
    if (d->traded)
        printf("  note: batch traded for gradient accumulation with the effective batch kept "
               "(one move)\n");
    if (!d->one_var)
        printf("  %swarning%s: %zu variables changed%s; change one variable per run, or the effect "
               "cannot be attributed\n",
               color_code(d->color, COLOR_YELLOW), color_code(d->color, COLOR_RESET),
               d->traded ? d->n_env_counted + 1 : d->n_changed + d->n_env_counted,
               d->traded ? " (the batch trade counts once)" : "");
}

static void peak_of(const struct ledger_row *r, double peak, char *buf, size_t size)
{
    bool lower = ledger_flag(r, LEDGER_PEAK_LOWER_BOUND) == 1;
    if (isnan(peak)) snprintf(buf, size, "unknown");
    char f[32];
    if (!isnan(peak))
        snprintf(buf, size, "%s%s GB%s", lower ? ">= " : "", ledger_figure_text(peak, 2, f, sizeof f),
                 lower ? " (OOM message: a lower bound)" : "");
}

static void print_peak(const struct diff *d)
{
    char pa[64], pb[64];
    peak_of(d->a, d->peak_a, pa, sizeof pa);
    peak_of(d->b, d->peak_b, pb, sizeof pb);
    printf("  peak: %s -> %s", pa, pb);
    bool la = ledger_flag(d->a, LEDGER_PEAK_LOWER_BOUND) == 1, lb = ledger_flag(d->b, LEDGER_PEAK_LOWER_BOUND) == 1;
    bool lower = la || lb;
    if (la && lb) {
        printf(" (both lower bounds: the change is not known)");
    } else if (!isnan(d->peak_a) && !isnan(d->peak_b)) {
        /* a lower bound before means the true change is at most this; after, at least:
         * said as a size ("at least 7.40 GB less", not "at most -7.40 GB") where the
         * bound gives the direction */
        double delta = d->peak_b - d->peak_a;
        char f[32];
        if ((la && delta < 0) || (lb && delta > 0))
            printf(" (at least %s GB %s", ledger_figure_text(fabs(delta), 2, f, sizeof f), delta < 0 ? "less" : "more");
        else
            printf(" (%s%s%s GB", la ? "at most " : lb ? "at least " : "", delta >= 0 ? "+" : "",
                   ledger_figure_text(delta, 2, f, sizeof f));
        double pct = 100.0 * (d->peak_b - d->peak_a) / d->peak_a;
        if (d->peak_a > 0 && !lower) printf(", %s%s%%", pct >= 0 ? "+" : "", ledger_figure_text(pct, 1, f, sizeof f));
        printf(")");
    }
    printf("\n");
}

static void mem_trend_of(const struct ledger_row *r, char *buf, size_t size)
{
    const char *t = r->cell[LEDGER_MEM_TREND];
    if (!*t) snprintf(buf, size, "unknown");
    else if (!*r->cell[LEDGER_MEM_FIRST_GB]) snprintf(buf, size, "%s", cell(r, LEDGER_MEM_TREND));
    else if (strcmp(t, "growing") || !*r->cell[LEDGER_MEM_GB_PER_100_STEPS])
        /* a level is not a slope (rows before it was left empty hold one) */
        snprintf(buf, size, "%s (%s -> %s GB, steps %s)", cell(r, LEDGER_MEM_TREND),
                 cell(r, LEDGER_MEM_FIRST_GB), cell(r, LEDGER_MEM_LAST_GB), cell(r, LEDGER_MEM_STEPS));
    else
        snprintf(buf, size, "%s (%s -> %s GB, steps %s, %s GB/100 steps)", cell(r, LEDGER_MEM_TREND),
                 cell(r, LEDGER_MEM_FIRST_GB), cell(r, LEDGER_MEM_LAST_GB), cell(r, LEDGER_MEM_STEPS),
                 cell(r, LEDGER_MEM_GB_PER_100_STEPS));
}

static void print_text(const struct diff *d)
{
    printf("compare %s -> %s\n", cell(d->a, LEDGER_RUN_ID), cell(d->b, LEDGER_RUN_ID));
    /* a run not done has no figures yet: say why they read "unknown" */
    for (const struct ledger_row *const *r = (const struct ledger_row *const[]){d->a, d->b, NULL}; *r; r++) {
        const char *state = ledger_io_state(*r);
        if (!strcmp(state, "running"))
            printf("  note: %s is still running: its peak, OOM and trends are not recorded yet\n", cell(*r, LEDGER_RUN_ID));
        else if (strcmp(state, "done"))
            printf("  note: %s has no final row (oomlab was killed, or could not write it): its peak, OOM and "
                   "trends are unknown\n", cell(*r, LEDGER_RUN_ID));
    }
    print_changes(d);
    print_peak(d);
    char oa[64], ob[64], ma[200], mb[200];
    printf("  oom: %s -> %s\n", oom_text(d->a, oa, sizeof oa), oom_text(d->b, ob, sizeof ob));
    mem_trend_of(d->a, ma, sizeof ma);
    mem_trend_of(d->b, mb, sizeof mb);
    if (strcmp(ma, "unknown") || strcmp(mb, "unknown")) /* older ledgers have no trend */
        printf("  memory trend: %s -> %s\n", ma, mb);
    /* an empty cell is unknown, as oom and memory trend say (not the table's "-") */
    printf("  loss trend: %s -> %s\n", *d->a->cell[LEDGER_LOSS_TREND] ? cell(d->a, LEDGER_LOSS_TREND) : "unknown",
           *d->b->cell[LEDGER_LOSS_TREND] ? cell(d->b, LEDGER_LOSS_TREND) : "unknown");
    if (isnan(d->eff_a) || isnan(d->eff_b))
        printf("  effective batch: unknown\n");
    else
        printf("  effective batch: %.0f -> %.0f (%s)\n", d->eff_a, d->eff_b,
               d->eff_a == d->eff_b ? "kept" : "changed");
    /* The guide compares loss trends on the same token count, not step. */
    if (!isnan(d->tok_a) && !isnan(d->tok_b) && d->tok_a != d->tok_b && d->tok_a > 0 && d->tok_b > 0)
        printf("  tokens per optimizer step: %.0f -> %.0f: compare losses at the same token count "
               "(step N of %s = step %.3g x N of %s)\n",
               d->tok_a, d->tok_b, cell(d->b, LEDGER_RUN_ID), d->tok_b / d->tok_a, cell(d->a, LEDGER_RUN_ID));
}

static void print_json(const struct diff *d)
{
    struct json j;
    json_init(&j, stdout, false);
    json_obj_begin(&j);
    json_key(&j, "schema");
    json_str(&j, "oomlab.compare.v1");
    json_key(&j, "a");
    json_obj_begin(&j);
    ledger_io_json_row(&j, d->a);
    json_obj_end(&j);
    json_key(&j, "b");
    json_obj_begin(&j);
    ledger_io_json_row(&j, d->b);
    json_obj_end(&j);
    json_key(&j, "changed");
    json_arr_begin(&j);
    for (size_t i = 0; i < d->n_changed; i++) {
        json_obj_begin(&j);
        json_key(&j, "column");
        json_str(&j, ledger_col_name(d->changed[i]));
        json_key(&j, "a");
        ledger_io_json_cell(&j, d->a, d->changed[i]);
        json_key(&j, "b");
        ledger_io_json_cell(&j, d->b, d->changed[i]);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_key(&j, "env_changed");
    json_arr_begin(&j);
    const char *name = d->env_changed;
    for (size_t i = 0; i < d->n_env && *name; i++, name += strlen(name) + 1) {
        char *va = ledger_env_get(d->a->cell[LEDGER_ENV], name), *vb = ledger_env_get(d->b->cell[LEDGER_ENV], name);
        json_obj_begin(&j);
        json_key(&j, "name");
        json_str(&j, name);
        json_key(&j, "a");
        if (va) json_str(&j, va);
        else json_null(&j);
        json_key(&j, "b");
        if (vb) json_str(&j, vb);
        else json_null(&j);
        /* null is unset where the row recorded its env, unknown where it
         * never did (a row under an older header): say which */
        json_key(&j, "recorded");
        json_obj_begin(&j);
        json_key(&j, "a");
        json_bool(&j, !env_not_recorded(d->a));
        json_key(&j, "b");
        json_bool(&j, !env_not_recorded(d->b));
        json_obj_end(&j);
        json_obj_end(&j);
        free(va);
        free(vb);
    }
    json_arr_end(&j);
    json_key(&j, "one_variable");
    json_bool(&j, d->one_var);
    json_key(&j, "batch_traded_for_accum");
    json_bool(&j, d->traded);
    json_key(&j, "peak_gb");
    json_obj_begin(&j);
    json_key(&j, "a");
    json_double(&j, d->peak_a);
    json_key(&j, "b");
    json_double(&j, d->peak_b);
    json_key(&j, "delta"); /* to the ledger's 2 decimals: -7.4, not -7.400000000000002 */
    json_double(&j, round((d->peak_b - d->peak_a) * 100.0) / 100.0);
    json_obj_end(&j);
    json_key(&j, "effective_batch");
    json_obj_begin(&j);
    json_key(&j, "a");
    json_double(&j, d->eff_a);
    json_key(&j, "b");
    json_double(&j, d->eff_b);
    json_key(&j, "kept");
    if (isnan(d->eff_a) || isnan(d->eff_b)) json_null(&j);
    else json_bool(&j, d->eff_a == d->eff_b);
    json_obj_end(&j);
    json_key(&j, "tokens_per_step");
    json_obj_begin(&j);
    json_key(&j, "a");
    json_double(&j, d->tok_a);
    json_key(&j, "b");
    json_double(&j, d->tok_b);
    json_obj_end(&j);
    json_obj_end(&j);
    json_finish(&j);
}

struct compare_cli {
    const char *dir;
    bool json;
};

static const struct opt_spec specs[] = {
    OPT_DIR_SPEC("directory holding runs.csv (default .)", OPT_FIELD(struct compare_cli, dir)),
    {.name = "json", .help = "JSON, schema oomlab.compare.v1 (docs/table.md)", OPT_FIELD(struct compare_cli, json)},
    {0},
};
static const char usage_tail[] =
    "\nExit: 0 compared, 2 no ledger, a run not in it, the same run twice or usage,\n"
    "3 cannot write.\n";
static const struct opt_table opt_table = {.command = "compare", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs};
CMD_OPTIONS(cmd_compare_options, opt_table)

/* The same run id twice: a run against itself always "changes nothing",
 * which reads as a finding; say so instead and name the run before it in the
 * ledger, the comparison usually meant. */
static void same_run(const struct ledger *lg, const struct ledger_row *row, const char *dir,
                     struct oomlab_err *err)
{
    /* the --dir given, so the suggestion can be pasted; quoted if the shell would split it */
    char dir_arg[4200] = "";
    if (strcmp(dir, ".") != 0) {
        bool plain = strpbrk(dir, " \t\n'\"$\\`;&|<>()*?[]#~!{}") == NULL;
        snprintf(dir_arg, sizeof dir_arg, plain ? "--dir %s " : "--dir '%s' ", dir);
    }
    const char *id = row->cell[LEDGER_RUN_ID];
    const struct ledger_row *prev = NULL;
    for (size_t i = 0; i < lg->n && &lg->rows[i] != row; i++)
        prev = &lg->rows[i];
    if (prev)
        oomlab_err_set(err, "'%s' is given twice: a run compared with itself changes nothing; "
                            "to compare it with the run before it: oomlab compare %s%s %s",
                       id, dir_arg, prev->cell[LEDGER_RUN_ID], id);
    else
        oomlab_err_set(err, "'%s' is given twice: a run compared with itself changes nothing; "
                            "give two different run ids (oomlab table lists them)",
                       id);
}

int cmd_compare(int argc, char **argv)
{
    struct compare_cli cli = {.dir = "."};
    int first_arg, rc = cmd_options(&opt_table, argc, argv, &cli, &first_arg);
    if (rc != CMD_CONTINUE) return rc;
    const char *dir = cli.dir;
    bool json = cli.json;
    if (argc - first_arg != 2) return cmd_usage_error("compare", "expected two run ids");
    struct ledger lg;
    char path[4096];
    struct oomlab_err err = {{0}};
    if (ledger_io_load("compare", dir, &lg, path, sizeof path, &err) < 0) {
        ledger_io_where_is(dir, argv[first_arg], path, &err);
        return cmd_fail("compare", &err, EXIT_USAGE);
    }
    struct diff d = {.a = ledger_find(&lg, argv[first_arg]), .b = ledger_find(&lg, argv[first_arg + 1])};
    if (!d.a || !d.b) {
        const char *gone = d.a ? argv[first_arg + 1] : argv[first_arg];
        oomlab_err_set(&err, "run '%s' is not in %s", gone, path);
        ledger_io_where_is(dir, gone, path, &err);
        ledger_release(&lg);
        return cmd_fail("compare", &err, EXIT_USAGE);
    }
    if (d.a == d.b) {
        same_run(&lg, d.a, dir, &err);
        ledger_release(&lg);
        return cmd_fail("compare", &err, EXIT_USAGE);
    }
    d.color = color_enabled(stdout);
    analyse(&d);
    if (json) print_json(&d);
    else print_text(&d);
    ledger_release(&lg);
    return EXIT_OK; /* main checks what reached stdout */
}
