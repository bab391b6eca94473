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
#include <malloc.h>

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
                                           "capacity_GB,started_at,duration_s,exit_status,command,notes,"
                                           "peak_lower_bound,mem_trend,mem_first_GB,mem_last_GB,"
                                           "mem_steps,mem_GB_per_100_steps,env,oomlab_pid,host,job_id,rank,local_rank,"
                                           "node_rank,world_size,restart,gpu,ranks,worst_rank,device_peak_GB,"
                                           "device_used_start_GB\n");
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
    const char *text = "x,1\n1,2\n";
    struct ledger lg;
    struct oomlab_err err;
    /* "x" is not a header (no run_id): read as a headerless row */
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "t.csv", &err), 0);
    assert_int_equal(lg.n, 2);
    ledger_release(&lg);
}

/* A file that is no ledger (JSON, one line or pretty; a log; a CSV with
 * other columns) is refused, not read as headerless rows: table printed
 * junk, report named files after a JSON key, run appended rows to it. */
static void test_not_a_ledger_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *said;
    } cases[] = {
        {"{\"hidden_size\": 4096, \"num_layers\": 32, \"vocab\": [0, 1, 2]}\n", "device_batch_size would be 'num_layers: 32'"},
        {"{\n  \"hidden_size\": 4096,\n}\n", "1 column where"},
        {"name,batch,seq\nr1,8,1024\n", "device_batch_size would be 'batch'"},
        {"r1,8,1024,bf16,1,no,,,maybe\n", "oom would be 'maybe'"},
        {"epoch 1, step 20, loss 0.5\n", "device_batch_size would be 'step 20'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ledger lg;
        struct oomlab_err err = {0};
        assert_int_equal(ledger_parse(&lg, cases[i].text, strlen(cases[i].text), "runs.csv", &err), -1);
        assert_non_null(strstr(err.msg, "runs.csv:1:1: not an oomlab ledger"));
        assert_non_null(strstr(err.msg, cases[i].said));
    }
    char wide[4096] = "";
    for (int k = 0; k < 100; k++) strcat(wide, "\"k\": 1,");
    struct ledger lg;
    struct oomlab_err err = {0};
    assert_int_equal(ledger_parse(&lg, wide, strlen(wide), "runs.csv", &err), -1);
    assert_non_null(strstr(err.msg, "101 columns"));
    /* the guide's own table, short rows and empty cells, still reads */
    const char *guide = "run001,8,,bfloat16\nrun002,,2048,,,,,,yes\n";
    assert_int_equal(ledger_parse(&lg, guide, strlen(guide), "runs.csv", &err), 0);
    assert_int_equal(lg.n, 2);
    ledger_release(&lg);
}

/* The writer scans the ledger in pieces (sys/fsutil's append, 1 MiB at a
 * time), so it holds only the head however large the file: the state
 * after every split equals the whole text's, doubled quotes split across
 * two pieces included; a NUL byte is refused as ledger_parse refuses it;
 * the layout needs only the first two records. */
static void test_tail_in_pieces(void **state)
{
    (void)state;
    const char *texts[] = {
        "run_id,oom\nrun001,no\n", "run_id,oom\nrun001,n", "run_id,command\nrun001,\"python x.py --a",
        "run_id,notes\nrun001,5\" screen\n", "run_id,notes\nrun001,\"say \"\"hi\"\"\"\n",
        "run_id,notes\nrun001,\"say \"\"hi", "run_id;notes\r\nrun001;\"a;b\"\"\r\n",
    };
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        size_t len = strlen(texts[t]);
        for (size_t cut = 0; cut <= len; cut++) {
            struct ledger_tail tail;
            ledger_tail_init(&tail, texts[t], len);
            ledger_tail_feed(&tail, texts[t], cut);
            ledger_tail_feed(&tail, texts[t] + cut, len - cut);
            assert_string_equal(ledger_tail_end(&tail), ledger_tail_repair(texts[t], len));
        }
    }
    assert_string_equal(ledger_tail_repair(texts[4], strlen(texts[4])), ""); /* closed after "" pairs */
    assert_string_equal(ledger_tail_repair(texts[5], strlen(texts[5])), "\"\n");
    const char zeros[] = "run_id,oom\nrun001,no\nru\0\0\0";
    struct ledger_tail tail;
    struct oomlab_err err, parse_err;
    struct ledger lg;
    ledger_tail_init(&tail, zeros, sizeof zeros - 1);
    ledger_tail_feed(&tail, zeros, sizeof zeros - 1);
    assert_int_equal(ledger_tail_check(&tail, "runs.csv", &err), -1);
    assert_int_equal(ledger_parse(&lg, zeros, sizeof zeros - 1, "runs.csv", &parse_err), -1);
    assert_string_equal(err.msg, parse_err.msg); /* runs.csv:3:3: binary data ... */
    assert_non_null(strstr(err.msg, "runs.csv:3:3: binary data"));
    const char *rows = "run_id,command\nrun001,\"a\nb\"\nrun002,c\n";
    assert_int_equal(ledger_layout_len(rows, strlen(rows)), strlen("run_id,command\nrun001,\"a\nb\"\n"));
    assert_int_equal(ledger_layout_len(zeros, sizeof zeros - 1), strlen("run_id,oom\nrun001,no\n"));
    assert_int_equal(ledger_layout_len("run_id,oom\n\0\0", 13), 11);
}

/* Rows as "line|cell|cell|...\n" for the stream test. */
struct rows_text {
    char buf[8192];
    size_t len;
};

static int rows_text_add(const struct ledger_row *row, void *ctx, struct oomlab_err *err)
{
    (void)err;
    struct rows_text *t = ctx;
    int w = snprintf(t->buf + t->len, sizeof t->buf - t->len, "%ld", row->line);
    t->len += (size_t)w;
    for (int c = 0; c < LEDGER_NCOLS && t->len < sizeof t->buf; c++) {
        w = snprintf(t->buf + t->len, sizeof t->buf - t->len, "|%s", row->cell[c]);
        t->len += (size_t)w;
    }
    if (t->len + 1 < sizeof t->buf) t->buf[t->len++] = '\n', t->buf[t->len] = '\0';
    return 0;
}

/* Fed in random pieces, the reader makes the rows, line numbers, layout
 * and errors of one whole parse: a "" pair, a CRLF, a quoted newline, a BOM,
 * a sep= line or the header cut between pieces included. */
static void test_stream_in_pieces(void **state)
{
    (void)state;
    static const char alphabet[] = "\",\n\r a1;\0";
    /* UTF-16 with a BOM or without (NULs in every other byte): said so
     * however the pieces cut the BOM or the bytes the sniff reads */
#define HEAD(s) {s, sizeof s - 1}
    static const struct {
        const char *text;
        size_t len;
    } heads[] = {HEAD("run_id,notes,oom\n"), HEAD("run_id,notes,oom\r\n"), HEAD("sep=,\nrun_id,notes\n"),
                 HEAD("\xEF\xBB\xBFrun_id,command\n"), HEAD("\xFF\xFErun_id,notes\n"),
                 HEAD("r\0u\0n\0_\0i\0d\0,\0n\0\n\0")};
#undef HEAD
    char text[96];
    unsigned seed = 777;
    for (int round = 0; round < 20000; round++) {
        seed = seed * 1103515245u + 12345u;
        const char *head = heads[(seed >> 16) % (sizeof heads / sizeof heads[0])].text;
        size_t hl = heads[(seed >> 16) % (sizeof heads / sizeof heads[0])].len;
        seed = seed * 1103515245u + 12345u;
        size_t len = hl + (seed >> 16) % 60;
        memcpy(text, head, hl);
        for (size_t i = hl; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned k = (seed >> 16) % (sizeof alphabet - 1);
            text[i] = k == sizeof alphabet - 2 && (seed >> 8) % 8 ? 'b' : alphabet[k]; /* NUL now and then */
        }
        struct ledger whole;
        struct oomlab_err e1 = {{0}}, e2 = {{0}};
        int rc1 = ledger_parse(&whole, text, len, "runs.csv", &e1);
        struct rows_text want = {.len = 0}, got = {.len = 0};
        want.buf[0] = got.buf[0] = '\0';
        for (size_t i = 0; rc1 == 0 && i < whole.n; i++) rows_text_add(&whole.rows[i], &want, NULL);
        struct ledger_stream *st = ledger_stream_new("runs.csv", rows_text_add, &got);
        assert_non_null(st);
        int rc2 = 0;
        for (size_t at = 0; at < len && rc2 == 0;) {
            seed = seed * 1103515245u + 12345u;
            size_t n = 1 + (seed >> 16) % 5; /* the header cut too: the stream holds it until whole */
            if (n > len - at) n = len - at;
            rc2 = ledger_stream_feed(st, text + at, n, &e2);
            at += n;
        }
        if (rc2 == 0) rc2 = ledger_stream_end(st, &e2);
        assert_int_equal(rc2, rc1);
        if (rc1 < 0) {
            assert_string_equal(e2.msg, e1.msg);
        } else {
            assert_string_equal(got.buf, want.buf);
            assert_int_equal(ledger_stream_layout(st)->crlf, whole.crlf);
            assert_int_equal(ledger_stream_layout(st)->delimiter, whole.delimiter);
            ledger_release(&whole);
        }
        ledger_stream_free(st);
    }
}

/* "line|id" of each row with an id: what a reader keeping only run_id sees. */
static int ids_text_add(const struct ledger_row *row, void *ctx, struct oomlab_err *err)
{
    (void)err;
    struct rows_text *t = ctx;
    const char *id = row->cell[LEDGER_RUN_ID];
    if (!id || !*id) return 0;
    int w = snprintf(t->buf + t->len, sizeof t->buf - t->len, "%ld|%s\n", row->line, id);
    if (w > 0 && (size_t)w < sizeof t->buf - t->len) t->len += (size_t)w;
    return 0;
}

/* ledger_stream_keep: only run_id made, the other cells read past (the
 * fields after it not even made), in random pieces: the same ids, lines
 * and errors as a whole parse, with run_id first, in the middle or last,
 * quotes, "" pairs, CRLF and quoted line breaks in the cells skipped. */
static void test_stream_keep_ids(void **state)
{
    (void)state;
    static const char alphabet[] = "\",\n\r a1;x";
    static const char *const heads[] = {"run_id,notes,oom\n", "notes,run_id,oom\r\n", "oom,notes,run_id\n",
                                        "sep=,\nnotes,run_id\n", "run_id\n"};
    static const enum ledger_col id_only[] = {LEDGER_RUN_ID};
    char text[128];
    unsigned seed = 4242;
    for (int round = 0; round < 20000; round++) {
        seed = seed * 1103515245u + 12345u;
        const char *head = heads[(seed >> 16) % 5];
        size_t hl = strlen(head);
        seed = seed * 1103515245u + 12345u;
        size_t len = hl + (seed >> 16) % 100;
        memcpy(text, head, hl);
        for (size_t i = hl; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            text[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        struct ledger whole;
        struct oomlab_err e1 = {{0}}, e2 = {{0}};
        int rc1 = ledger_parse(&whole, text, len, "runs.csv", &e1);
        struct rows_text want = {.len = 0}, got = {.len = 0};
        want.buf[0] = got.buf[0] = '\0';
        for (size_t i = 0; rc1 == 0 && i < whole.n; i++) ids_text_add(&whole.rows[i], &want, NULL);
        struct ledger_stream *st = ledger_stream_new("runs.csv", ids_text_add, &got);
        assert_non_null(st);
        ledger_stream_keep(st, id_only, 1);
        int rc2 = 0;
        for (size_t at = 0; at < len && rc2 == 0;) {
            seed = seed * 1103515245u + 12345u;
            size_t n = 1 + (seed >> 16) % 7;
            if (n > len - at) n = len - at;
            rc2 = ledger_stream_feed(st, text + at, n, &e2);
            at += n;
        }
        if (rc2 == 0) rc2 = ledger_stream_end(st, &e2);
        assert_int_equal(rc2, rc1);
        if (rc1 < 0) assert_string_equal(e2.msg, e1.msg);
        else assert_string_equal(got.buf, want.buf), ledger_release(&whole);
        ledger_stream_free(st);
    }
}

/* The byte-at-a-time rule ledger_tail_repair had (the reader's), against
 * the jumping scan, on random text in random pieces. */
static const char *tail_reference(const char *text, size_t len)
{
    if (len == 0) return "";
    bool q = false, start = true;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (q) {
            if (c == '"' && i + 1 < len && text[i + 1] == '"') i++;
            else if (c == '"') q = false;
        } else if (c == '"' && start) {
            q = true;
            start = false;
        } else if (c == ',' || c == '\n' || c == '\r') {
            start = true;
        } else if (c != ' ') {
            start = false;
        }
    }
    if (q) return "\"\n";
    return text[len - 1] == '\n' || text[len - 1] == '\r' ? "" : "\n";
}

static void test_tail_random(void **state)
{
    (void)state;
    static const char alphabet[] = "\",\n\r a";
    char text[64];
    unsigned seed = 12345;
    for (int round = 0; round < 20000; round++) {
        seed = seed * 1103515245u + 12345u;
        size_t len = 11 + (seed >> 16) % 40;
        memcpy(text, "run_id,oom\n", 11); /* the delimiter: ',' */
        for (size_t i = 11; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            text[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
        }
        struct ledger_tail t;
        ledger_tail_init(&t, text, len);
        for (size_t at = 0; at < len;) {
            seed = seed * 1103515245u + 12345u;
            size_t n = 1 + (seed >> 16) % 7;
            if (n > len - at) n = len - at;
            ledger_tail_feed(&t, text + at, n);
            at += n;
        }
        assert_string_equal(ledger_tail_end(&t), tail_reference(text, len));
    }
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
    assert_string_equal(ledger_dtype_canonical("bf16-true"), "bfloat16"); /* a run config's spelling too */
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


/* issue 11: Excel's "sep=;" first line is the delimiter, not a run. */
static void test_sep_line_is_the_delimiter(void **state)
{
    (void)state;
    const char *text = "sep=;\r\nrun_id;device_batch_size;oom\r\nrun001;8;no\r\nrun002;4,5;yes\r\n";
    struct ledger lg;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "runs.csv", NULL), 0);
    assert_int_equal(lg.n, 2);
    assert_int_equal(lg.delimiter, ';');
    assert_true(lg.crlf);
    assert_string_equal(lg.rows[0].cell[LEDGER_RUN_ID], "run001");
    assert_string_equal(lg.rows[0].cell[LEDGER_DEVICE_BATCH_SIZE], "8");
    assert_int_equal(lg.rows[0].line, 3);
    assert_string_equal(lg.rows[1].cell[LEDGER_OOM], "yes");
    ledger_release(&lg);
    const char *tab = "sep=\t\nrun_id\toom\nr1\tno\n";
    assert_int_equal(ledger_parse(&lg, tab, strlen(tab), "runs.csv", NULL), 0);
    assert_int_equal(lg.n, 1);
    assert_int_equal(lg.delimiter, '\t');
    assert_string_equal(lg.rows[0].cell[LEDGER_OOM], "no");
    ledger_release(&lg);
    assert_string_equal(ledger_tail_repair(text, strlen(text)), "");
}

/* ledger_prepare_reads's one pass gives every row the edges and rank rows
 * the per-row scans give: jobs with ranks, plain runs, OOM rows between. */
static void test_prepared_reads_same(void **state)
{
    (void)state;
    char text[16384];
    size_t len = (size_t)snprintf(text, sizeof text,
                                  "run_id,job_id,rank,oom,peak_reserved_GB,capacity_GB,started_at,exit_status\n");
    for (int j = 0; j < 60; j++) {
        int ranks = j % 3 == 0 ? 0 : 1 + j % 4;
        const char *oom = j % 7 == 3 ? "yes" : "no";
        if (!ranks)
            len += (size_t)snprintf(text + len, sizeof text - len, "run%03d,,,%s,%d.00,24.00,2026-12-01T00:00:%02dZ,0\n",
                                    j, oom, 10 + j % 13, j % 60);
        for (int r = 0; r < ranks; r++)
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    "job%03d,slurm:%d,%d,%s,%d.00,24.00,2026-12-01T00:00:%02dZ,0\n", j, j, r, oom,
                                    10 + (j + r) % 13, j % 60);
    }
    struct ledger lg;
    assert_int_equal(ledger_parse(&lg, text, len, "runs.csv", NULL), 0);
    assert_int_equal(ledger_keep_latest(&lg, NULL), 0);
    assert_true(lg.n_detail > 0);
    unsigned want[128];
    assert_true(lg.n <= 128);
    for (size_t i = 0; i < lg.n; i++) want[i] = ledger_edges(&lg, i, 90);
    assert_int_equal(ledger_prepare_reads(&lg), 0);
    assert_non_null(lg.rank_at);
    int any_edge = 0;
    for (size_t i = 0; i < lg.n; i++) {
        const struct ledger_row *a, *b;
        assert_int_equal(ledger_edges(&lg, i, 90), want[i]);
        any_edge |= want[i] != 0;
        size_t na = ledger_rank_rows(&lg, lg.rows[i].cell[LEDGER_RUN_ID], &a), nb = ledger_row_ranks(&lg, i, &b);
        assert_int_equal(na, nb);
        assert_ptr_equal(a, b);
    }
    assert_true(any_edge);
    ledger_sort_by_start(&lg); /* rows moved in place: the index must go */
    assert_null(lg.prev_oom);
    assert_null(lg.rank_at);
    ledger_release(&lg);
}

/* issue 10: a placeholder row is replaced in place by its final row; a
 * forced re-run replaces the older row. */
static void test_keep_latest_row_per_run(void **state)
{
    (void)state;
    const char *text = "run_id,exit_status,notes\n"
                       "run001,running,\n"
                       "run002,running,\n"
                       "run003,0,first\n"
                       "run002,1,final\n"
                       "run003,0,forced\n"
                       ",1,no id\n"
                       ",2,no id either\n";
    struct ledger lg;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "runs.csv", NULL), 0);
    assert_int_equal(ledger_keep_latest(&lg, NULL), 0);
    assert_int_equal(lg.n, 5); /* rows without an id are never merged */
    assert_string_equal(lg.rows[0].cell[LEDGER_RUN_ID], "run001");
    assert_true(ledger_is_running(&lg.rows[0]));
    assert_string_equal(lg.rows[1].cell[LEDGER_RUN_ID], "run002");
    assert_string_equal(lg.rows[1].cell[LEDGER_NOTES], "final");
    assert_string_equal(lg.rows[2].cell[LEDGER_NOTES], "forced");
    ledger_release(&lg);
}

/* The rank row's "OOM unknown" tag is the ledger's named note (one text for
 * run, which writes it, and any reader): found whole in the notes run
 * writes (golden run-ranks-oom-beyond-kept holds the full line). */
static void test_oom_unknown_note(void **state)
{
    (void)state;
    static const char notes[] = "rank 299's lines of the launcher's log, attempt 0; exit not in the log; "
                                "OOM unknown: the log has more OOM events than oomlab keeps (256)";
    const char *const prefixes[] = {LEDGER_NOTE_OOM_UNKNOWN};
    char got[160];
    assert_true(ledger_first_note(notes, prefixes, 1, got, sizeof got));
    assert_string_equal(got, LEDGER_NOTE_OOM_UNKNOWN " (256)");
}

/* started_at has one-second resolution: an OOM rank that started in the
 * next second (a slow start under ASan) and ended under a second after a
 * watchdog abort is still the first to fail; a second or more apart, the
 * earlier end wins whatever the cause (run_ranks.sh flaked on this). */
static void test_first_fail_ties(void **state)
{
    (void)state;
    const char *text =
        "run_id,peak_reserved_GB,capacity_GB,oom,oom_stage,started_at,duration_s,exit_status,job_id,rank,restart,notes\n"
        "t,40.00,80.00,no,-,2026-01-02T00:00:00Z,2.00,134,slurm:7,0,,\n"
        "t,79.00,80.00,yes,forward,2026-01-02T00:00:01Z,1.50,1,slurm:7,1,,\n"
        "u,40.00,80.00,no,-,2026-01-02T00:00:00Z,2.00,134,slurm:8,0,,\n"
        "u,79.00,80.00,yes,forward,2026-01-02T00:00:02Z,1.50,1,slurm:8,1,,\n";
    struct ledger lg;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "runs.csv", NULL), 0);
    assert_int_equal(ledger_keep_latest(&lg, NULL), 0);
    assert_int_equal(lg.n, 2);
    assert_string_equal(lg.rows[0].cell[LEDGER_EXIT_STATUS], "1");
    assert_string_equal(lg.rows[0].cell[LEDGER_NOTES], "2 ranks; worst rank 1; first to fail: rank 1 (exit 1, GPU OOM); "
                                                       "1 other rank failed after it");
    assert_string_equal(lg.rows[1].cell[LEDGER_EXIT_STATUS], "134");
    ledger_release(&lg);
}

/* issue 16: the ranks of one job fold into one row (the worst rank's peak,
 * the first rank to fail); an older job with the same id is dropped; a
 * wrapping run's own row stays the job's row; shards merge by start. */
static void test_fold_ranks(void **state)
{
    (void)state;
    const char *text =
        "run_id,peak_reserved_GB,capacity_GB,oom,oom_stage,started_at,duration_s,exit_status,job_id,rank,restart,notes\n"
        "j,70.00,80.00,no,-,2026-01-01T00:00:00Z,5.00,0,slurm:1,0,,old job\n"
        "j,,,,,2026-01-02T00:00:00Z,,running,slurm:2,0,,\n"
        "j,,,,,2026-01-02T00:00:00Z,,running,slurm:2,1,,\n"
        "j,,,,,2026-01-02T00:00:00Z,,running,slurm:2,2,,\n"
        "j,79.50,80.00,yes,backward,2026-01-02T00:00:00Z,30.00,1,slurm:2,2,,\n"
        "j,41.25,80.00,no,-,2026-01-02T00:00:01Z,631.00,1,slurm:2,1,,\n"
        "j,40.00,80.00,no,-,2026-01-02T00:00:00Z,632.00,1,slurm:2,0,,\n"
        "w,60.00,80.00,yes,forward,2026-01-03T00:00:00Z,9.00,1,,,,wrapper\n"
        "w,60.00,80.00,yes,forward,2026-01-03T00:00:00Z,9.00,1,,1,,\n"
        "w,20.00,80.00,no,-,2026-01-03T00:00:00Z,9.00,1,,0,,\n"
        "k,,,,,2026-01-04T00:00:00Z,,running,slurm:3,0,,\n"
        "k,10.00,80.00,no,-,2026-01-04T00:00:00Z,3.00,0,slurm:3,1,,\n"
        /* a requeued job: restart 0 ran out of memory on rank 1, restart 1 did not */
        "q,79.90,80.00,yes,forward,2026-01-05T00:00:00Z,8.00,1,slurm:4,1,0,\n"
        "q,30.00,80.00,no,-,2026-01-05T00:00:00Z,9.00,143,slurm:4,0,0,\n"
        "q,31.00,80.00,no,-,2026-01-05T01:00:00Z,60.00,0,slurm:4,0,1,\n"
        "q,32.00,80.00,no,-,2026-01-05T01:00:00Z,60.00,0,slurm:4,1,1,\n"
        /* restarted after rank 0's OOM; the restart's OOM is rank 1's */
        "p,79.00,80.00,yes,forward,2026-01-06T00:00:00Z,5.00,1,slurm:5,0,0,\n"
        "p,20.00,80.00,no,-,2026-01-06T00:00:00Z,6.00,143,slurm:5,1,0,\n"
        "p,21.00,80.00,no,-,2026-01-06T01:00:00Z,9.00,143,slurm:5,0,1,\n"
        "p,79.50,80.00,yes,backward,2026-01-06T01:00:00Z,8.00,1,slurm:5,1,1,\n";
    struct ledger lg;
    assert_int_equal(ledger_parse(&lg, text, strlen(text), "runs.csv", NULL), 0);
    assert_int_equal(ledger_keep_latest(&lg, NULL), 0);
    assert_int_equal(lg.n, 5);
    const struct ledger_row *j = &lg.rows[0], *w = &lg.rows[1], *k = &lg.rows[2], *q = &lg.rows[3], *d;
    /* the row is the latest restart's; the notes say which restart OOMed */
    assert_string_equal(q->cell[LEDGER_OOM], "no");
    assert_string_equal(q->cell[LEDGER_EXIT_STATUS], "0");
    assert_string_equal(q->cell[LEDGER_PEAK_RESERVED_GB], "32.00");
    assert_string_equal(q->cell[LEDGER_NOTES], "2 ranks; worst rank 1; this row: restart 1; "
                                               "restart 0: GPU OOM, rank 1 first");
    assert_int_equal(ledger_rank_rows(&lg, "q", &d), 4);
    /* report's page is a rank of the attempt the row is (the latest),
     * never restart 0's OOM rank that comes first in rank order */
    long restart = -1;
    size_t count = 0;
    const struct ledger_row *page = ledger_job_page_rank(d, 4, q->cell[LEDGER_WORST_RANK], &restart, &count);
    assert_int_equal(restart, 1);
    assert_int_equal(count, 2);
    assert_string_equal(page->cell[LEDGER_RANK], "1");
    assert_string_equal(page->cell[LEDGER_RESTART], "1");
    assert_string_equal(page->cell[LEDGER_OOM], "no");
    assert_int_equal(ledger_rank_rows(&lg, "p", &d), 4);
    page = ledger_job_page_rank(d, 4, lg.rows[4].cell[LEDGER_WORST_RANK], &restart, NULL);
    assert_string_equal(page->cell[LEDGER_RANK], "1"); /* the latest attempt's OOM, not rank 0's of attempt 0 */
    assert_string_equal(page->cell[LEDGER_RESTART], "1");
    assert_string_equal(lg.rows[4].cell[LEDGER_OOM_STAGE], page->cell[LEDGER_OOM_STAGE]);
    assert_null(ledger_job_page_rank(d, 0, "", NULL, NULL));
    assert_string_equal(j->cell[LEDGER_RUN_ID], "j");
    assert_string_equal(j->cell[LEDGER_JOB_ID], "slurm:2");
    assert_string_equal(j->cell[LEDGER_PEAK_RESERVED_GB], "79.50");
    assert_string_equal(j->cell[LEDGER_WORST_RANK], "2");
    assert_string_equal(j->cell[LEDGER_RANKS], "3");
    assert_string_equal(j->cell[LEDGER_RANK], "");
    assert_string_equal(j->cell[LEDGER_OOM], "yes");
    assert_string_equal(j->cell[LEDGER_OOM_STAGE], "backward");
    assert_string_equal(j->cell[LEDGER_DURATION_S], "632.00");
    assert_string_equal(j->cell[LEDGER_EXIT_STATUS], "1");
    assert_string_equal(j->cell[LEDGER_NOTES], "3 ranks; worst rank 2; first to fail: rank 2 (exit 1, GPU OOM); "
                                               "2 other ranks failed after it");
    assert_int_equal(ledger_rank_rows(&lg, "j", &d), 3);
    assert_string_equal(d[0].cell[LEDGER_RANK], "0");
    assert_string_equal(d[0].cell[LEDGER_PEAK_RESERVED_GB], "40.00");
    assert_string_equal(d[2].cell[LEDGER_RANK], "2");
    /* the wrapper's own row is the job's */
    assert_string_equal(w->cell[LEDGER_NOTES], "wrapper");
    assert_int_equal(ledger_rank_rows(&lg, "w", &d), 2);
    /* a rank still running keeps the job running */
    assert_true(ledger_is_running(k));
    assert_string_equal(k->cell[LEDGER_RANKS], "2");
    assert_int_equal(ledger_rank_rows(&lg, "nope", &d), 0);
    assert_non_null(ledger_find(&lg, "j"));
    ledger_release(&lg);

    char stem[64];
    assert_int_equal(ledger_stem(stem, sizeof stem, "x", -1, 0), 0);
    assert_string_equal(stem, "x");
    assert_int_equal(ledger_stem(stem, sizeof stem, "x", 3, 0), 0);
    assert_string_equal(stem, "x_rank3");
    assert_int_equal(ledger_stem(stem, sizeof stem, "x", 3, 2), 0);
    assert_string_equal(stem, "x_rank3_restart2");
    assert_int_equal(ledger_stem(stem, 5, "x", 3, 2), -1);
}

/* A new id with a space is refused with the id to use; ledger_id_check
 * (the readers') still takes it, so older ledgers read as before. */
static void test_new_id_no_space(void **state)
{
    (void)state;
    struct oomlab_err err = {{0}};
    assert_int_equal(ledger_id_check("a b", &err), 0);
    assert_int_equal(ledger_id_check_new("lr-3e-4_bs8", &err), 0);
    assert_int_equal(ledger_id_check_new("a b c", &err), -1);
    assert_non_null(strstr(err.msg, "contains a space"));
    assert_non_null(strstr(err.msg, "use 'a_b_c'"));
    assert_int_equal(ledger_id_check_new("../x", &err), -1); /* the readers' rules first */
    assert_non_null(strstr(err.msg, "'/' or '..'"));
}

/* A new id's character set: ASCII letters, digits and _ . - + = , @, the
 * first a letter, a digit or '_'; anything else is refused with the id to
 * use ('_' for each character outside, a UTF-8 sequence counting one). The
 * readers' check still takes them. */
static void test_new_id_charset(void **state)
{
    (void)state;
    struct oomlab_err err = {{0}};
    static const char *const ok[] = {"run001", "lr=3e-4,bs=8@a100+ckpt_v1.2", "_x", "9", "A-a2"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (ledger_id_check_new(ok[i], &err) < 0) fail_msg("%s: %s", ok[i], err.msg);
    static const struct { const char *id, *use, *what; } bad[] = {
        {"a$b", "a_b", "contains '$'"},       {"a`b`", "a_b_", "contains '`'"},
        {"it's", "it_s", "contains \"'\""},   {"a\"b", "a_b", "contains '\"'"},
        {"a;b&c|d", "a_b_c_d", "contains ';'"}, {"x:y", "x_y", "contains ':'"},
        {"+x", "_x", "starts with '+'"},       {"=x", "_x", "starts with '='"},
        {"caf\xc3\xa9", "caf_", "byte 0xc3 (not ASCII)"},
        {("a\xe2\x80\xae" "b"), "a_b", "byte 0xe2"}, /* U+202E, right-to-left override */
        {"a*b?[c]", "a_b__c_", "contains '*'"}, {"a b", "a_b", "contains a space"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char use[80];
        snprintf(use, sizeof use, "use '%s'", bad[i].use);
        if (ledger_id_check_new(bad[i].id, &err) != -1 || !strstr(err.msg, use) || !strstr(err.msg, bad[i].what))
            fail_msg("%s: %s", bad[i].id, err.msg);
        assert_int_equal(ledger_id_check(bad[i].id, &err), 0); /* old ledgers still read */
    }
}

/* eff: the cell, else batch x grad_accum (empty or below 1: 1), as run
 * writes it; no figure for a batch that is none or below 1. */
static void test_effective_batch(void **state)
{
    (void)state;
    static const char text[] = "run_id,device_batch_size,grad_accum,effective_batch\n"
                               "a,4,8,\nb,8,,\nc,2,4,6\nd,,4,\ne,-3,2,\nf,4,0,\n";
    struct ledger lg;
    struct oomlab_err err = {{0}};
    assert_int_equal(ledger_parse(&lg, text, sizeof text - 1, "runs.csv", &err), 0);
    assert_int_equal((int)lg.n, 6);
    assert_true(ledger_effective_batch(&lg.rows[0]) == 32);
    assert_true(ledger_effective_batch(&lg.rows[1]) == 8);
    assert_true(ledger_effective_batch(&lg.rows[2]) == 6); /* the cell wins */
    assert_true(isnan(ledger_effective_batch(&lg.rows[3])));
    assert_true(isnan(ledger_effective_batch(&lg.rows[4])));
    assert_true(ledger_effective_batch(&lg.rows[5]) == 4);
    ledger_release(&lg);
}

/* A hostile runs.csv: an id that would name a file outside logs/ or
 * reports/ is no stem, and a file with a NUL byte is no ledger. */
static void test_hostile_ids_and_binary(void **state)
{
    (void)state;
    struct oomlab_err err = {{0}};
    assert_int_equal(ledger_id_check("run001", &err), 0);
    assert_int_equal(ledger_id_check("lr-3e-4_bs8", &err), 0);
    const char *bad[] = {"", "../etc/x", "a/b", "..", "-rf", ".hidden", "a\nb", "a\033[31m", "\xff\xfe",
                         "0123456789012345678901234567890123456789012345678901234567890123"};
    char stem[128];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(ledger_id_check(bad[i], &err), -1);
        assert_true(err.msg[0] != '\0');
        assert_int_equal(ledger_stem(stem, sizeof stem, bad[i], -1, 0), -1);
        assert_int_equal(ledger_stem(stem, sizeof stem, bad[i], 2, 0), -1);
    }
    struct ledger lg;
    static const char bin[] = "run_id,device_batch_size\nr1,4\nr2\0x,8\n";
    assert_int_equal(ledger_parse(&lg, bin, sizeof bin - 1, "runs.csv", &err), -1);
    /* the command that keeps the rows before the NUL's line: it starts at byte 30 */
    assert_string_equal(err.msg, "runs.csv:3:3: binary data (a NUL byte): not a CSV ledger (zeros left by a crash? "
                                 "cut the file before this line: truncate -s 30 runs.csv)");
    /* the same offset however the file comes in pieces (the first record is
     * held whole; the NUL's line may start in an earlier piece), and from
     * the tail run scans before appending (stranger23) */
    for (size_t cut = 1; cut < sizeof bin - 1; cut++) {
        struct ledger_stream *st = ledger_stream_new("runs.csv", NULL, NULL);
        assert_non_null(st);
        int rc = ledger_stream_feed(st, bin, cut, &err);
        if (rc == 0) rc = ledger_stream_feed(st, bin + cut, sizeof bin - 1 - cut, &err);
        if (rc == 0) rc = ledger_stream_end(st, &err);
        assert_int_equal(rc, -1);
        assert_non_null(strstr(err.msg, "runs.csv:3:3: "));
        assert_non_null(strstr(err.msg, ": truncate -s 30 runs.csv)"));
        ledger_stream_free(st);
        struct ledger_tail tail;
        ledger_tail_init(&tail, bin, sizeof bin - 1);
        ledger_tail_feed(&tail, bin, cut);
        ledger_tail_feed(&tail, bin + cut, sizeof bin - 1 - cut);
        assert_int_equal(ledger_tail_check(&tail, "runs.csv", &err), -1);
        assert_non_null(strstr(err.msg, "runs.csv:3:3: "));
        assert_non_null(strstr(err.msg, ": truncate -s 30 runs.csv)"));
    }
}

static void test_merge_shards(void **state)
{
    (void)state;
    const char *a = "run_id,started_at,host\nr1,2026-01-01T00:00:02Z,a\nr3,2026-01-01T00:00:09Z,a\n";
    const char *b = "run_id,started_at,host\nr2,2026-01-01T00:00:05Z,b\nr0,,b\n";
    struct ledger la, lb;
    assert_int_equal(ledger_parse(&la, a, strlen(a), "a.csv", NULL), 0);
    assert_int_equal(ledger_parse(&lb, b, strlen(b), "b.csv", NULL), 0);
    assert_int_equal(ledger_take_rows(&la, &lb, NULL), 0);
    assert_int_equal(lb.n, 0);
    ledger_sort_by_start(&la);
    assert_int_equal(la.n, 4);
    assert_string_equal(la.rows[0].cell[LEDGER_RUN_ID], "r1");
    assert_string_equal(la.rows[1].cell[LEDGER_RUN_ID], "r2");
    assert_string_equal(la.rows[2].cell[LEDGER_RUN_ID], "r3");
    assert_string_equal(la.rows[3].cell[LEDGER_RUN_ID], "r0");
    ledger_release(&la);
    ledger_release(&lb);
}

/* issue 10: the memory-relevant environment is recorded and compared. */
static void test_env_capture_and_compare(void **state)
{
    (void)state;
    char *envp[] = {"PATH=/bin", "TORCH_HOME=/x", "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
                    "NCCL_DEBUG=INFO", "NCCL_=odd", "TORCHX=no", "OMP_NUM_THREADS=4",
                    "XLA_PYTHON_CLIENT_MEM_FRACTION=.5", "CUDA_VISIBLE_DEVICES=0,1",
                    "TF_GPU_ALLOCATOR=cuda_malloc_async", "CUDA_LAUNCH_BLOCKING=1",
                    "TORCH_LOGS=it's here", NULL};
    char *cell = ledger_env_capture(envp);
    assert_string_equal(cell, "CUDA_LAUNCH_BLOCKING=1 CUDA_VISIBLE_DEVICES=0,1 NCCL_DEBUG=INFO "
                              "OMP_NUM_THREADS=4 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
                              "TF_GPU_ALLOCATOR=cuda_malloc_async TORCH_HOME=/x "
                              "TORCH_LOGS='it'\\''s here' XLA_PYTHON_CLIENT_MEM_FRACTION=.5");
    char *v = ledger_env_get(cell, "TORCH_LOGS");
    assert_string_equal(v, "it's here");
    free(v);
    assert_null(ledger_env_get(cell, "PATH"));
    char names[256];
    const char *other = "CUDA_VISIBLE_DEVICES=0,1 NCCL_DEBUG=WARN";
    size_t n = ledger_env_changed(other, "CUDA_VISIBLE_DEVICES=0,1 PYTORCH_CUDA_ALLOC_CONF=x",
                                  names, sizeof names);
    assert_int_equal(n, 2);
    assert_string_equal(names, "NCCL_DEBUG");
    assert_string_equal(names + strlen(names) + 1, "PYTORCH_CUDA_ALLOC_CONF");
    assert_int_equal(ledger_env_changed("", "", names, sizeof names), 0);
    free(cell);
    char *none[] = {"HOME=/root", NULL};
    cell = ledger_env_capture(none);
    assert_string_equal(cell, "");
    free(cell);
}

/* issue 11: status first, a cut on a UTF-8 character boundary. */
static void test_notes_cut_on_a_character(void **state)
{
    (void)state;
    char notes[16] = "";
    ledger_notes_add(notes, sizeof notes, "killed");
    ledger_notes_add(notes, sizeof notes, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"); /* 10 bytes */
    /* "killed; " is 8 bytes, 7 left: three 2-byte characters */
    assert_string_equal(notes, "killed; \xc3\xa9\xc3\xa9\xc3\xa9");
    ledger_notes_add(notes, sizeof notes, "more");
    assert_string_equal(notes, "killed; \xc3\xa9\xc3\xa9\xc3\xa9");
}

/* issue 10: a sample that saw nothing, or a peak below the OOM message's
 * own figures, never wins; the message wins as a lower bound. */
static void test_peak_choice(void **state)
{
    (void)state;
    const int64_t G = 1073741824;
    struct ledger_peak_out o;
    struct ledger_peak_in oom_nvml_low = {-1, -1, 2 * G, 21 * G, 22 * G, 23 * G};
    ledger_choose_peak(&oom_nvml_low, &o);
    assert_string_equal(o.source, "oom");
    assert_true(o.lower_bound);
    assert_int_equal(o.alloc, 21 * G);
    assert_int_equal(o.reserved, 22 * G);
    struct ledger_peak_in oom_nvml_zero = {-1, -1, 0, -1, -1, 23 * G};
    ledger_choose_peak(&oom_nvml_zero, &o);
    assert_string_equal(o.source, "oom");
    assert_int_equal(o.reserved, 23 * G); /* no reserved figure: the process's use */
    struct ledger_peak_in nvml_high = {-1, -1, 24 * G, 21 * G, 22 * G, 23 * G};
    ledger_choose_peak(&nvml_high, &o);
    assert_string_equal(o.source, "nvml");
    assert_false(o.lower_bound);
    assert_int_equal(o.reserved, 24 * G);
    struct ledger_peak_in log_ok = {22 * G, 23 * G, 24 * G, 21 * G, 22 * G, 23 * G};
    ledger_choose_peak(&log_ok, &o);
    assert_string_equal(o.source, "log");
    struct ledger_peak_in log_low = {10 * G, 11 * G, -1, 21 * G, 22 * G, 23 * G};
    ledger_choose_peak(&log_low, &o);
    assert_string_equal(o.source, "oom");
    struct ledger_peak_in no_oom_nvml_zero = {-1, -1, 0, -1, -1, -1};
    ledger_choose_peak(&no_oom_nvml_zero, &o);
    assert_string_equal(o.source, "");
    assert_int_equal(o.reserved, -1);
    struct ledger_peak_in clean = {-1, -1, 5 * G, -1, -1, -1};
    ledger_choose_peak(&clean, &o);
    assert_string_equal(o.source, "nvml");
}

/* A big ledger is held in proportion to its text: one allocation per row
 * for its cells, empty cells shared. Before, every cell (38 a row, filled
 * or not) was its own malloc: about 2 KiB of heap per 11-cell row. */
static void test_big_ledger_heap_proportionate(void **state)
{
    (void)state;
    enum { ROWS = 20000 };
    size_t cap = (size_t)ROWS * 80 + 200, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text, cap, "run_id,device_batch_size,max_seq_len,dtype,grad_accum,grad_ckpt,"
                                       "peak_alloc_GB,peak_reserved_GB,oom,oom_stage,loss_trend\n");
    for (int i = 0; i < ROWS; i++)
        len += (size_t)snprintf(text + len, cap - len, "r%d,32,1024,bfloat16,1,false,20.04,21.56,no,-,falling\n", i);
    size_t before = mallinfo2().uordblks;
    struct ledger lg;
    struct oomlab_err err = {0};
    assert_int_equal(ledger_parse(&lg, text, len, "big.csv", &err), 0);
    assert_int_equal(lg.n, ROWS);
    assert_int_equal(ledger_keep_latest(&lg, &err), 0);
    size_t after = mallinfo2().uordblks; /* a sanitizer's allocator: glibc's figures do not move */
    size_t per_row = after > before ? (after - before) / ROWS : 0;
    assert_true(per_row < 3 * sizeof(struct ledger_row)); /* the row array's doubling, and the cells */
    assert_string_equal(lg.rows[ROWS - 1].cell[LEDGER_RUN_ID], "r19999");
    assert_string_equal(lg.rows[7].cell[LEDGER_NOTES], "");
    ledger_release(&lg);
    free(text);
}

/* Two commands that differ only in their words: the differing span with
 * the word before it, the same words around it elided. */
static void test_command_change(void **state)
{
    (void)state;
    char out[128];
    assert_true(ledger_command_change("sim --batch 9 --seq 256", "sim --batch 10 --seq 256", out, sizeof out));
    assert_string_equal(out, "... --batch 9 ... -> ... --batch 10 ...");
    assert_true(ledger_command_change("python train.py", "python train.py --fp16", out, sizeof out));
    assert_string_equal(out, "... train.py -> ... train.py --fp16");
    assert_true(ledger_command_change("a b", "c d", out, sizeof out));
    assert_string_equal(out, "a b -> c d");
    assert_false(ledger_command_change("sim --batch 9", "sim  --batch 9", out, sizeof out));
    assert_false(ledger_command_change("", "", out, sizeof out));
    char tiny[12];
    assert_true(ledger_command_change("x aaaaaaaaaaaaaaaa", "x bbbbbbbbbbbbbbbb", tiny, sizeof tiny));
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
    assert_string_equal(tiny, "x aaaa[...]"); /* a cut is said, not silent */
    /* cut inside a UTF-8 character: the mark starts on a character */
    assert_true(ledger_command_change("x\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", "b", tiny, sizeof tiny));
    assert_string_equal(tiny, "x\xc3\xa9\xc3\xa9[...]");
    /* a 300-byte word each side: the size the header promises holds it whole */
    char a[320] = "run ", b[320] = "run ";
    memset(a + 4, 'x', 300), memset(b + 4, 'y', 300);
    a[304] = b[304] = '\0';
    size_t size = strlen(a) + strlen(b) + LEDGER_CHANGE_SLACK;
    char *whole = malloc(size);
    assert_non_null(whole);
    assert_true(ledger_command_change(a, b, whole, size));
    assert_int_equal(strlen(whole), 3 + 1 + 300 + 4 + 3 + 1 + 300); /* "... xxx -> ... yyy" */
    assert_null(strstr(whole, "[...]"));
    free(whole);
    /* any number of words: commands of 300 words that differ in the 281st
     * (a table of 256 words once said them the same), and one more word
     * past the 256th */
    size_t big = 300 * 8 + 64;
    char *x = malloc(big), *y = malloc(big), *change = malloc(2 * big + LEDGER_CHANGE_SLACK);
    assert_true(x && y && change);
    size_t nx = 0, ny = 0;
    for (int i = 0; i < 300; i++) {
        nx += (size_t)snprintf(x + nx, big - nx, "%s-o%d", i ? " " : "", i);
        ny += (size_t)snprintf(y + ny, big - ny, "%s-o%d", i ? " " : "", i == 280 ? 999 : i);
    }
    assert_true(ledger_command_change(x, y, change, 2 * big + LEDGER_CHANGE_SLACK));
    assert_string_equal(change, "... -o279 -o280 ... -> ... -o279 -o999 ...");
    memcpy(y, x, nx + 1);
    char *cut = strstr(y, " -o257"); /* y: 257 words, x: 300 */
    assert_non_null(cut);
    *cut = '\0';
    assert_true(ledger_command_change(y, x, change, 2 * big + LEDGER_CHANGE_SLACK));
    assert_string_equal(change, "... -o256 -> ... -o256 -o257 -o258 -o259 -o260 -o261 -o262 -o263 -o264 "
                                "-o265 -o266 -o267 -o268 -o269 -o270 -o271 -o272 -o273 -o274 -o275 -o276 "
                                "-o277 -o278 -o279 -o280 -o281 -o282 -o283 -o284 -o285 -o286 -o287 -o288 "
                                "-o289 -o290 -o291 -o292 -o293 -o294 -o295 -o296 -o297 -o298 -o299");
    assert_false(ledger_command_change(x, x, change, 2 * big + LEDGER_CHANGE_SLACK));
    free(x);
    free(y);
    free(change);
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
        cmocka_unit_test(test_not_a_ledger_refused),
        cmocka_unit_test(test_cut_short_row_does_not_swallow_the_next),
        cmocka_unit_test(test_tail_in_pieces),
        cmocka_unit_test(test_tail_random),
        cmocka_unit_test(test_stream_in_pieces),
        cmocka_unit_test(test_stream_keep_ids),
        cmocka_unit_test(test_unterminated_quote_ends_at_eof),
        cmocka_unit_test(test_edge_rules),
        cmocka_unit_test(test_one_variable_rule),
        cmocka_unit_test(test_column_lookup),
        cmocka_unit_test(test_sep_line_is_the_delimiter),
        cmocka_unit_test(test_keep_latest_row_per_run),
        cmocka_unit_test(test_prepared_reads_same),
        cmocka_unit_test(test_fold_ranks),
        cmocka_unit_test(test_merge_shards),
        cmocka_unit_test(test_env_capture_and_compare),
        cmocka_unit_test(test_notes_cut_on_a_character),
        cmocka_unit_test(test_peak_choice),
        cmocka_unit_test(test_first_fail_ties),
        cmocka_unit_test(test_oom_unknown_note),
        cmocka_unit_test(test_hostile_ids_and_binary),
        cmocka_unit_test(test_new_id_no_space),
        cmocka_unit_test(test_new_id_charset),
        cmocka_unit_test(test_effective_batch),
        cmocka_unit_test(test_big_ledger_heap_proportionate),
        cmocka_unit_test(test_command_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
