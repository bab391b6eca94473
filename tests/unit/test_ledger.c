/* Unit tests for lib/ledger: the guide's columns, CSV quoting and formula
 * neutralising, tolerant parsing of hand-edited ledgers, tail repair, the
 * "on the edge" rules and the one-variable rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/ledger.h"

static const char *fmt(const char *v)
{
    static char buf[256];
    ledger_format_cell(v, buf, sizeof buf);
    return buf;
}

static void test_header_is_the_guides_columns_then_extras(void **state)
{
    (void)state;
    size_t len;
    char *h = ledger_header(&len);
    assert_non_null(h);
    const char *guide = "run_id,device_batch_size,max_seq_len,dtype,grad_accum,grad_ckpt,"
                        "peak_alloc_GB,peak_reserved_GB,oom,oom_stage,loss_trend,";
    assert_memory_equal(h, guide, strlen(guide));
    assert_string_equal(h + strlen(guide), "effective_batch,peak_source,peak_pct_capacity,"
                                           "capacity_GB,started_at,duration_s,exit_status,command,notes\n");
    assert_int_equal(len, strlen(h));
    free(h);
}

static void test_cells_quoted_and_neutralised(void **state)
{
    (void)state;
    assert_string_equal(fmt("plain"), "plain");
    assert_string_equal(fmt("a,b"), "\"a,b\"");
    assert_string_equal(fmt("say \"hi\""), "\"say \"\"hi\"\"\"");
    assert_string_equal(fmt("two\nlines"), "\"two\nlines\"");
    assert_string_equal(fmt("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    assert_string_equal(fmt("+cmd"), "'+cmd");
    assert_string_equal(fmt("@SUM(A1)"), "'@SUM(A1)");
    assert_string_equal(fmt("--flag"), "'--flag");
    assert_string_equal(fmt("-"), "-");     /* the guide's "no stage" */
    assert_string_equal(fmt("-1.5"), "-1.5"); /* numbers stay numbers */
    assert_string_equal(fmt("'quoted"), "''quoted");
    assert_string_equal(fmt(" pad"), "\" pad\"");
    assert_string_equal(fmt(""), "");
}

static void test_row_round_trip(void **state)
{
    (void)state;
    struct ledger_row row;
    assert_int_equal(ledger_row_init(&row), 0);
    ledger_row_set(&row, LEDGER_RUN_ID, "run007");
    ledger_row_set(&row, LEDGER_COMMAND, "python train.py --x 'a,b'");
    ledger_row_set(&row, LEDGER_NOTES, "=1+1; multi\r\nline");
    ledger_row_set(&row, LEDGER_OOM, "yes");
    size_t hl, rl;
    char *h = ledger_header(&hl), *r = ledger_format_row(&row, &rl);
    char *text = malloc(hl + rl + 1);
    memcpy(text, h, hl);
    memcpy(text + hl, r, rl + 1);
    struct ledger lg;
    struct oomlab_err err;
    assert_int_equal(ledger_parse(&lg, text, hl + rl, "t.csv", &err), 0);
    assert_int_equal(lg.n, 1);
    for (size_t c = 0; c < LEDGER_NCOLS; c++) assert_string_equal(lg.rows[0].cell[c], row.cell[c]);
    assert_int_equal(lg.rows[0].line, 2);
    ledger_release(&lg);
    ledger_row_release(&row);
    free(h);
    free(r);
    free(text);
}

static void test_spreadsheet_edited_ledger_reads(void **state)
{
    (void)state;
    /* BOM, CRLF, ';' delimiter, reordered and missing columns, a quoted
     * field with the delimiter, a blank line, the guide's own Chinese note. */
    const char *text = "\xEF\xBB\xBF" "oom;run_id;Peak_Reserved_GB ;loss_trend;notes;custom\r\n"
                       "yes;run001;;-;\"a;b\";x\r\n"
                       "\r\n"
                       "no;run002;12.5;\xE5\xB9\xB3\xE7\xA8\xB3\xE4\xB8\x8B\xE9\x99\x8D;'=cmd\r\n";
    struct ledger lg;
    struct oomlab_err err;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "t.csv", &err), 0);
    assert_int_equal(lg.delimiter, ';');
    assert_int_equal(lg.n, 2);
    assert_string_equal(lg.rows[0].cell[LEDGER_RUN_ID], "run001");
    assert_string_equal(lg.rows[0].cell[LEDGER_NOTES], "a;b");
    assert_int_equal(ledger_flag(&lg.rows[0], LEDGER_OOM), 1);
    assert_string_equal(lg.rows[1].cell[LEDGER_NOTES], "=cmd");
    assert_true(ledger_num(&lg.rows[1], LEDGER_PEAK_RESERVED_GB) == 12.5);
    assert_true(isnan(ledger_num(&lg.rows[1], LEDGER_PEAK_ALLOC_GB)));
    assert_string_equal(lg.rows[1].cell[LEDGER_DEVICE_BATCH_SIZE], "");
    assert_int_equal(lg.rows[1].line, 4);
    ledger_release(&lg);
}

static void test_headerless_guide_table(void **state)
{
    (void)state;
    const char *text = "run001,8,2048,bfloat16,1,false,,,yes,forward,-\n"
                       "run002,4,2048,bfloat16,2,false,20.1,21.0,no,-,falling\n";
    struct ledger lg;
    struct oomlab_err err;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "t.csv", &err), 0);
    assert_int_equal(lg.n, 2);
    assert_string_equal(lg.rows[0].cell[LEDGER_OOM_STAGE], "forward");
    assert_int_equal(ledger_flag(&lg.rows[1], LEDGER_GRAD_CKPT), 0);
    assert_int_equal(ledger_max_run_number(&lg), 2);
    assert_ptr_equal(ledger_find(&lg, "run002"), &lg.rows[1]);
    assert_null(ledger_find(&lg, "run003"));
    ledger_release(&lg);
}

static void test_first_row_without_run_id_is_data(void **state)
{
    (void)state;
    const char *text = "x\n1\n";
    struct ledger lg;
    struct oomlab_err err;
    /* "x" is not a header (no run_id): read as a headerless row */
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "t.csv", &err), 0);
    assert_int_equal(lg.n, 2);
    ledger_release(&lg);
}

static void test_cut_short_row_does_not_swallow_the_next(void **state)
{
    (void)state;
    const char *clean = "run_id,oom\nrun001,no\n";
    assert_string_equal(ledger_tail_repair(clean, strlen(clean)), "");
    assert_string_equal(ledger_tail_repair("", 0), "");
    const char *no_nl = "run_id,oom\nrun001,n";
    assert_string_equal(ledger_tail_repair(no_nl, strlen(no_nl)), "\n");
    const char *open_quote = "run_id,command\nrun001,\"python x.py --a";
    assert_string_equal(ledger_tail_repair(open_quote, strlen(open_quote)), "\"\n");
    const char *mid_quote = "run_id,notes\nrun001,5\" screen\n"; /* not an opening quote */
    assert_string_equal(ledger_tail_repair(mid_quote, strlen(mid_quote)), "");
    /* After the repair, the next row parses on its own. */
    char text[256];
    snprintf(text, sizeof text, "%s%srun002,python y.py\n", open_quote,
             ledger_tail_repair(open_quote, strlen(open_quote)));
    struct ledger lg;
    struct oomlab_err err;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "t.csv", &err), 0);
    assert_int_equal(lg.n, 2);
    assert_string_equal(lg.rows[1].cell[LEDGER_COMMAND], "python y.py");
    ledger_release(&lg);
}

static void test_unterminated_quote_ends_at_eof(void **state)
{
    (void)state;
    const char *text = "run_id,notes\nrun001,\"never closed\nstill";
    struct ledger lg;
    struct oomlab_err err;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "t.csv", &err), 0);
    assert_int_equal(lg.n, 1);
    assert_string_equal(lg.rows[0].cell[LEDGER_NOTES], "never closed\nstill");
    ledger_release(&lg);
}

static struct ledger parse_ok(const char *text)
{
    struct ledger lg;
    struct oomlab_err err;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "t.csv", &err), 0);
    return lg;
}

static void test_edge_rules(void **state)
{
    (void)state;
    struct ledger lg = parse_ok("run_id,peak_reserved_GB,oom,capacity_GB\n"
                                "r1,20.0,yes,24\n"   /* the failing run */
                                "r2,21.0,no,24\n"    /* fits, peak not lower, 87.5% */
                                "r3,22.0,no,24\n"    /* fits, 91.7%, peak not lower */
                                "r4,12.0,no,24\n"    /* a real fix */
                                "r5,,no,24\n");      /* no peak: nothing to say */
    assert_int_equal(ledger_edges(&lg, 0, 90), 0);
    assert_int_equal(ledger_edges(&lg, 1, 90), 2);
    assert_int_equal(ledger_edges(&lg, 2, 90), 3);
    assert_int_equal(ledger_edges(&lg, 3, 90), 0);
    assert_int_equal(ledger_edges(&lg, 4, 90), 0);
    assert_int_equal(ledger_edges(&lg, 9, 90), 0);
    assert_string_equal(ledger_edge_rules[0].name, "near-capacity");
    assert_string_equal(ledger_edge_rules[1].name, "peak-not-lower");
    assert_true(fabs(ledger_pct_capacity(&lg.rows[2]) - 91.6666) < 0.01);
    ledger_release(&lg);
}

static void test_one_variable_rule(void **state)
{
    (void)state;
    struct ledger lg = parse_ok("run_id,device_batch_size,max_seq_len,dtype,grad_accum,grad_ckpt\n"
                                "a,8,2048,bf16,1,false\n"
                                "b,8,2048,bfloat16,1.0,no\n"
                                "c,4,1024,bfloat16,2,true\n");
    enum ledger_col out[8];
    assert_int_equal(ledger_changed(&lg.rows[0], &lg.rows[1], out, 8), 0);
    assert_int_equal(ledger_changed(&lg.rows[1], &lg.rows[2], out, 8), 4);
    assert_int_equal(out[0], LEDGER_DEVICE_BATCH_SIZE);
    assert_int_equal(out[1], LEDGER_MAX_SEQ_LEN);
    assert_int_equal(out[2], LEDGER_GRAD_ACCUM);
    assert_int_equal(out[3], LEDGER_GRAD_CKPT);
    assert_string_equal(ledger_dtype_canonical("FP16"), "float16");
    assert_string_equal(ledger_dtype_canonical("int8"), "int8");
    ledger_release(&lg);
}

static void test_column_lookup(void **state)
{
    (void)state;
    assert_int_equal(ledger_col_lookup(" Run_ID ", 8), LEDGER_RUN_ID);
    assert_int_equal(ledger_col_lookup("grad_accum_steps", 16), LEDGER_GRAD_ACCUM);
    assert_int_equal(ledger_col_lookup("gradient_checkpointing", 22), LEDGER_GRAD_CKPT);
    assert_int_equal(ledger_col_lookup("nope", 4), -1);
    assert_string_equal(ledger_col_name(LEDGER_NOTES), "notes");
    assert_string_equal(ledger_col_name(LEDGER_NCOLS), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_is_the_guides_columns_then_extras),
        cmocka_unit_test(test_cells_quoted_and_neutralised),
        cmocka_unit_test(test_row_round_trip),
        cmocka_unit_test(test_spreadsheet_edited_ledger_reads),
        cmocka_unit_test(test_headerless_guide_table),
        cmocka_unit_test(test_first_row_without_run_id_is_data),
        cmocka_unit_test(test_cut_short_row_does_not_swallow_the_next),
        cmocka_unit_test(test_unterminated_quote_ends_at_eof),
        cmocka_unit_test(test_edge_rules),
        cmocka_unit_test(test_one_variable_rule),
        cmocka_unit_test(test_column_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
