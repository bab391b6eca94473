/* Unit tests for the report's pure parts: lib/reduce keeps extremes,
 * lib/memcsv reads memlog's CSV, render/html escapes every hostile byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>

#include "lib/logidx.h"
#include "lib/memcsv.h"
#include "lib/reduce.h"
#include "render/html.h"
#include "render/svg.h"

static void test_reduce_keeps_spike(void **state)
{
    (void)state;
    enum { N = 100000 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), ox[400], oy[400];
    for (int i = 0; i < N; i++) x[i] = i, y[i] = 5 + (i % 3);
    y[77777] = 99;  /* a one-sample spike */
    y[12345] = -4;  /* and a dip */
    size_t m = reduce_minmax(x, y, N, 100, ox, oy);
    assert_true(m <= 400 && m >= 200);
    int spike = 0, dip = 0;
    for (size_t i = 0; i < m; i++) {
        spike += oy[i] == 99 && ox[i] == 77777;
        dip += oy[i] == -4 && ox[i] == 12345;
        if (i) assert_true(ox[i] >= ox[i - 1]);
    }
    assert_int_equal(spike, 1);
    assert_int_equal(dip, 1);
    assert_true(ox[0] == 0 && ox[m - 1] == N - 1); /* ends kept */
    free(x), free(y);
}

static void test_reduce_small_copied(void **state)
{
    (void)state;
    double x[3] = {1, 2, 3}, y[3] = {4, 5, 6}, ox[8], oy[8];
    assert_int_equal(reduce_minmax(x, y, 3, 2, ox, oy), 3);
    assert_true(oy[2] == 6);
    assert_int_equal(reduce_minmax(x, y, 0, 2, ox, oy), 0);
    assert_int_equal(reduce_minmax(x, y, 3, 0, ox, oy), 0);
}

static const char mem_csv[] =
    "# started: 2026-12-01T20:35:21Z\n"
    "timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib\n"
    "2026-12-01T20:35:21.000Z,0,0,512,24576,24064,50,\n"
    "2026-12-01T20:35:21.000Z,0,1,,24576,,,\n"
    "2026-12-01T20:35:21.500Z,500,0,7000,24576,17576,50,6488\n"
    "garbage,row\n"
    "2026-12-01T20:35:21.500Z,500,0,x,24576,17576,50,6488\n"
    "2026-12-01T20:35:22.000Z,1000,0,7100,24576,17476,50,65";

static void test_memcsv(void **state)
{
    (void)state;
    struct memcsv m;
    struct oomlab_err err;
    double x[REDUCE_STREAM_MAX_POINTS], y[REDUCE_STREAM_MAX_POINTS];
    assert_int_equal(memcsv_parse(&m, mem_csv, strlen(mem_csv), &err), 0);
    assert_int_equal(m.not_sampled, 0);
    assert_int_equal(m.n_gpus, 2);
    assert_int_equal(m.gpus[0].index, 0);
    assert_int_equal(m.gpus[0].rows, 2); /* the cut last row is not a sample */
    assert_int_equal(m.bad_rows, 3);
    assert_int_equal(m.gpus[0].total, 24576LL << 20);
    assert_int_equal(reduce_stream_points(&m.gpus[0].used, x, y), 2);
    assert_true(y[0] == (double)(512LL << 20) && x[1] == 0.5);
    assert_int_equal(reduce_stream_points(&m.gpus[0].tree, x, y), 1); /* the first row's is unknown */
    assert_true(x[0] == 0.5 && y[0] == (double)(6488LL << 20));
    assert_int_equal(m.gpus[1].used.kept, 0);
    assert_int_equal(m.start_ms, memcsv_iso_ms("2026-12-01T20:35:21.000Z", 24));
    memcsv_release(&m);
    const char *none = "# GPU memory not sampled: no NVML\n";
    assert_int_equal(memcsv_parse(&m, none, strlen(none), &err), 0);
    assert_int_equal(m.not_sampled, 1);
    assert_true(m.said_not_sampled);
    assert_string_equal(m.not_sampled_why, "no NVML");
    assert_int_equal(m.n_gpus, 0);
    memcsv_release(&m);
    /* a file that is no memory log at all is not one that says so */
    const char *junk = "\x01\x02 garbage\nmore,junk\n";
    assert_int_equal(memcsv_parse(&m, junk, strlen(junk), &err), 0);
    assert_int_equal(m.not_sampled, 1);
    assert_false(m.said_not_sampled);
    assert_false(m.in_rows);
    memcsv_release(&m);
}

/* Fed one byte at a time, or in any split, the same result as whole. */
static void test_memcsv_chunks(void **state)
{
    (void)state;
    struct memcsv whole, bytes;
    struct oomlab_err err;
    assert_int_equal(memcsv_parse(&whole, mem_csv, strlen(mem_csv), &err), 0);
    memcsv_init(&bytes);
    for (size_t i = 0; i < strlen(mem_csv); i++) assert_int_equal(memcsv_feed(&bytes, mem_csv + i, 1, &err), 0);
    memcsv_finish(&bytes);
    assert_int_equal(bytes.n_gpus, whole.n_gpus);
    assert_int_equal(bytes.bad_rows, whole.bad_rows);
    assert_int_equal(bytes.gpus[0].rows, whole.gpus[0].rows);
    assert_int_equal(bytes.gpus[0].used.kept, whole.gpus[0].used.kept);
    memcsv_release(&whole), memcsv_release(&bytes);
    /* a line longer than the buffer: a comment is skipped, a row is bad */
    char big[3 * MEMCSV_LINE_MAX];
    int k = snprintf(big, sizeof big, "timestamp,elapsed_ms,gpu,used_mib,total_mib,free_mib,util_pct,tree_mib\n#");
    memset(big + k, 'c', MEMCSV_LINE_MAX + 10);
    k += MEMCSV_LINE_MAX + 10;
    k += snprintf(big + k, sizeof big - (size_t)k, "\n2026-12-01T20:35:21.000Z,0,0,1,2,1,0,\n");
    assert_int_equal(memcsv_parse(&whole, big, (size_t)k, &err), 0);
    assert_int_equal(whole.bad_rows, 0);
    assert_int_equal(whole.gpus[0].rows, 1);
    memcsv_release(&whole);
    assert_int_equal(memcsv_iso_ms("1970-01-01T00:00:01.5Z", 22), 1500);
    assert_int_equal(memcsv_iso_ms("2000-03-01T00:00:00Z", 20), 951868800000LL);
    assert_int_equal(memcsv_iso_ms("2000-13-01T00:00:00Z", 20), -1);
    assert_int_equal(memcsv_iso_ms("yesterday", 9), -1);
}

/* A day of 10 ms samples in bounded memory: every spike and dip kept,
 * the ends kept, in x order, whatever order and width changes came. */
static void test_reduce_stream(void **state)
{
    (void)state;
    static double x[REDUCE_STREAM_MAX_POINTS], y[REDUCE_STREAM_MAX_POINTS];
    struct reduce_stream s;
    reduce_stream_init(&s);
    const uint64_t N = 8640000;
    for (uint64_t i = 0; i < N; i++) {
        double v = 6 + (double)(i % 7);
        if (i == 4321987) v = 30;
        if (i == 77) v = -1;
        assert_int_equal(reduce_stream_add(&s, (double)i / 100.0, v), 0);
    }
    reduce_stream_add(&s, NAN, 1); /* counted, not kept */
    assert_true(s.n == N + 1 && s.kept == N);
    size_t m = reduce_stream_points(&s, x, y);
    assert_true(m > REDUCE_STREAM_BUCKETS && m <= REDUCE_STREAM_MAX_POINTS);
    int spike = 0, dip = 0;
    for (size_t i = 0; i < m; i++) {
        spike += y[i] == 30 && x[i] == 43219.87;
        dip += y[i] == -1 && x[i] == 0.77;
        if (i) assert_true(x[i] >= x[i - 1]);
    }
    assert_int_equal(spike, 1);
    assert_int_equal(dip, 1);
    assert_true(x[0] == 0 && x[m - 1] == (double)(N - 1) / 100.0);
    reduce_stream_release(&s);
    /* out of order (a resumed run's steps): sorted, all kept while few */
    double in[] = {100, 101, 5, 102, 3, 1e9};
    reduce_stream_init(&s);
    for (size_t i = 0; i < 5; i++) reduce_stream_add(&s, in[i], (double)i);
    m = reduce_stream_points(&s, x, y);
    assert_int_equal(m, 5);
    assert_true(x[0] == 3 && y[0] == 4 && x[1] == 5 && x[4] == 102);
    /* one point far away widens the buckets: the first five share one,
     * which keeps its first, last, lowest and highest */
    reduce_stream_add(&s, in[5], 5);
    m = reduce_stream_points(&s, x, y);
    assert_int_equal(m, 4);
    assert_true(x[0] == 3 && y[0] == 4 && x[1] == 100 && y[1] == 0 && x[2] == 102 && x[3] == 1e9);
    assert_true(s.x_lo == 3 && s.x_hi == 1e9);
    reduce_stream_release(&s);
}

/* The index: entries answer offsets in order; disorder or junk makes it bad. */
static void test_logidx(void **state)
{
    (void)state;
    char buf[256];
    size_t n = logidx_header(buf, sizeof buf, "2026-12-02T10:00:00.000Z");
    assert_true(n > 0);
    struct logidx_writer w = {0};
    assert_true(logidx_due(&w, 0));
    assert_false(logidx_due(&w, 99));
    assert_true(logidx_due(&w, 100));
    const char *lines[] = {LOGIDX_MAGIC, "# start: 2026-12-02T10:00:00.000Z", "# resolution_ms: 100",
                           "0 0", "55 494", "110 800", "115 801"};
    struct logidx_cursor c;
    logidx_cursor_init(&c);
    size_t next = 0;
    const uint64_t ask[] = {0, 54, 55, 60, 110, 114};
    const int64_t want[] = {0, 0, 494, 494, 800, 800};
    for (size_t i = 0; i < 6; i++) {
        while (logidx_cursor_wants(&c, ask[i]) && next < 7) logidx_cursor_line(&c, lines[next], strlen(lines[next])), next++;
        if (next == 7) c.eof = true;
        assert_int_equal(logidx_cursor_ms(&c, ask[i]), want[i]);
    }
    assert_int_equal(c.start_ms, memcsv_iso_ms("2026-12-02T10:00:00.000Z", 24));
    struct logidx_entry last;
    assert_true(logidx_cursor_last(&c, &last) && last.offset == 115 && last.ms == 801);
    const char *bad[][3] = {{"not an index", "0 0", "1 1"}, {LOGIDX_MAGIC, "10 5", "9 6"}, {LOGIDX_MAGIC, "10 5", "11 4"},
                            {LOGIDX_MAGIC, "10 x", "11 6"}, {LOGIDX_MAGIC, "-1 5", "1 6"},
                            {LOGIDX_MAGIC, "99999999999999999999 1", "1 1"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        logidx_cursor_init(&c);
        for (int j = 0; j < 3; j++) logidx_cursor_line(&c, bad[i][j], strlen(bad[i][j]));
        assert_true(c.bad);
        assert_int_equal(logidx_cursor_ms(&c, 100), -1);
    }
}

static char *escaped(const char *s, size_t len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    html_escape(f, s, len);
    fclose(f);
    return buf;
}

static void test_html_escape(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        const char *out;
    } cases[] = {
        {"<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"},
        {"a&b \"q\"", "a&amp;b &quot;q&quot;"},
        {"tab\tnl\n", "tab\tnl\n"},
        {"\033[31m", "&#x241B;[31m"},
        {"\x7f", "&#x2421;"},
        {"\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80"}, /* valid UTF-8 kept */
        {"\xff\xfe", "&#xFFFD;&#xFFFD;"},
        {"\xc0\xaf", "&#xFFFD;&#xFFFD;"},          /* overlong */
        {"\xed\xa0\x80", "&#xFFFD;&#xFFFD;&#xFFFD;"}, /* a surrogate */
        {"\xe2\x82", "&#xFFFD;&#xFFFD;"},          /* cut */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = escaped(cases[i].in, strlen(cases[i].in));
        assert_string_equal(got, cases[i].out);
        free(got);
    }
    char *nul = escaped("a\0b", 3);
    assert_string_equal(nul, "a&#x2400;b");
    free(nul);
}

/* A chart over steps ticks whole steps: three steps drew "1, 1.2, 1.4, ..." */
static void test_step_axis_whole(void **state)
{
    (void)state;
    static const double x[] = {1, 2, 3}, y[] = {4, 4, 4};
    struct svg_chart c = {.id = "steps", .title = "t", .x_label = "step", .y_label = "GiB", .x_whole = true};
    c.series[c.n_series++] = (struct svg_series){.name = "peak", .x = x, .y = y, .n = 3};
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(svg_chart_render(f, &c, false), 0);
    fclose(f);
    assert_non_null(strstr(buf, "text-anchor=\"middle\">2</text>"));
    assert_null(strstr(buf, ">1.2</text>"));
    assert_null(strstr(buf, ">2.5</text>"));
    free(buf);
}

/* The y of the <text> whose content is label, or -1. */
static double text_y(const char *svg, const char *label)
{
    char want[64];
    snprintf(want, sizeof want, ">%s</text>", label);
    const char *at = strstr(svg, want), *y = NULL;
    if (!at) return -1;
    for (const char *p = svg; (p = strstr(p, " y=\"")) && p < at; p++) y = p;
    return y ? strtod(y + 4, NULL) : -1;
}

/* "step 20" near the plot's right drew its label at the top, over the
 * capacity line's "capacity 24.00 GiB" (seen in headless chromium): a step
 * label that meets a line's label goes below it; one clear of it (step 1,
 * at the left) stays at the top. */
static void test_step_label_clear_of_capacity(void **state)
{
    (void)state;
    static double x[41], y[41];
    for (int i = 0; i <= 40; i++) x[i] = i / 40.0, y[i] = 5 + 18.0 * i / 40;
    struct svg_chart c = {.id = "memory", .title = "t", .x_label = "s", .y_label = "GiB", .y_from_zero = true};
    c.series[c.n_series++] = (struct svg_series){.name = "GPU 0 used", .x = x, .y = y, .n = 41};
    c.hlines[c.n_hlines++] = (struct svg_line){.value = 24, .label = "capacity 24.00 GiB"};
    c.hlines[c.n_hlines++] = (struct svg_line){.value = 20.4, .label = "85% edge 20.40 GiB", .warn = true};
    c.markers[c.n_markers++] = (struct svg_line){.value = 0.02, .label = "step 1", .kind = "step"};
    c.markers[c.n_markers++] = (struct svg_line){.value = 0.88, .label = "step 20", .kind = "step"};
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(svg_chart_render(f, &c, false), 0);
    fclose(f);
    double cap = text_y(buf, "capacity 24.00 GiB"), edge = text_y(buf, "85% edge 20.40 GiB");
    double s1 = text_y(buf, "step 1"), s20 = text_y(buf, "step 20");
    assert_true(cap > 0 && edge > 0 && s1 > 0 && s20 > 0);
    assert_true(s20 - 10 >= cap);  /* its top below the capacity label's baseline */
    assert_true(s20 <= edge - 11); /* and above the edge label */
    assert_true(s1 < s20);         /* the one clear of them stays at the top */
    free(buf);
}

/* The x, y and text-anchor of the <text> whose content is label. */
static int text_at(const char *svg, const char *label, double *x, double *y, bool *end)
{
    char want[64];
    snprintf(want, sizeof want, ">%s</text>", label);
    const char *at = strstr(svg, want), *open = NULL;
    if (!at) return -1;
    for (const char *p = svg; (p = strstr(p, "<text ")) && p < at; p++) open = p;
    if (!open) return -1;
    const char *px = strstr(open, " x=\""), *py = strstr(open, " y=\""), *anchor = strstr(open, "text-anchor=\"");
    if (!px || !py || !anchor || px > at || py > at || anchor > at) return -1;
    *x = strtod(px + 4, NULL), *y = strtod(py + 4, NULL);
    *end = !strncmp(anchor + 13, "end", 3);
    return 0;
}

/* How many points of the first polyline, sampled every 0.25 px along each
 * segment, fall in the box (x0, x1, y0, y1). */
static int polyline_in_box(const char *svg, double x0, double x1, double y0, double y1)
{
    const char *p = strstr(svg, "<polyline points=\"");
    int hits = 0;
    if (!p) return -1;
    p += strlen("<polyline points=\"");
    double ax = 0, ay = 0;
    bool first = true;
    while (*p && *p != '"') {
        char *e;
        double bx = strtod(p, &e), by = strtod(e + 1, &e);
        if (!first) {
            double len = hypot(bx - ax, by - ay);
            for (double t = 0; t <= len; t += 0.25) {
                double sx = ax + (bx - ax) * t / len, sy = ay + (by - ay) * t / len;
                hits += sx > x0 && sx < x1 && sy > y0 && sy < y1;
            }
        }
        ax = bx, ay = by, first = false;
        p = e;
        while (*p == ' ') p++;
    }
    return hits;
}

/* The memory line running just over the 85% edge late in a run drew the
 * edge's label ("85% edge 20.40 GiB", above its line at the right end) on
 * top of the line (seen in headless chromium on tests/report/fixture
 * run001). The label now goes where the drawn line does not cross it; a
 * chart whose data stays low keeps it above the line at the right. */
static void test_edge_label_clear_of_data(void **state)
{
    (void)state;
    static double x[41], y[41];
    for (int i = 0; i <= 40; i++) x[i] = i / 40.0, y[i] = i < 28 ? 5 + 12.0 * i / 28 : 20.6 + 0.1 * (i % 3);
    struct svg_chart c = {.id = "memory", .title = "t", .x_label = "s", .y_label = "GiB", .y_from_zero = true};
    c.series[c.n_series++] = (struct svg_series){.name = "GPU 0 used", .x = x, .y = y, .n = 41};
    c.hlines[c.n_hlines++] = (struct svg_line){.value = 24, .label = "capacity 24.00 GiB"};
    c.hlines[c.n_hlines++] = (struct svg_line){.value = 20.4, .label = "85% edge 20.40 GiB", .warn = true};
    for (int low = 0; low < 2; low++) {
        if (low)
            for (int i = 0; i <= 40; i++) y[i] = 2 + 0.1 * (i % 3);
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        assert_int_equal(svg_chart_render(f, &c, false), 0);
        fclose(f);
        static const char *const labels[] = {"capacity 24.00 GiB", "85% edge 20.40 GiB"};
        for (int k = 0; k < 2; k++) {
            double tx = 0, ty = 0;
            bool end = false;
            assert_int_equal(text_at(buf, labels[k], &tx, &ty, &end), 0);
            double w = strlen(labels[k]) * 6.6; /* 11px sans-serif, as svg.c estimates */
            double x0 = end ? tx - w : tx, x1 = end ? tx : tx + w;
            int hits = polyline_in_box(buf, x0, x1, ty - 11, ty + 3);
            if (hits) fail_msg("%s at %.1f,%.1f (%s): the data line crosses it (%d samples)", labels[k], tx, ty,
                               end ? "end" : "start", hits);
            if (low) assert_true(end); /* nothing in the way: at the right end, as always */
        }
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_axis_whole),
        cmocka_unit_test(test_step_label_clear_of_capacity),
        cmocka_unit_test(test_edge_label_clear_of_data),
        cmocka_unit_test(test_reduce_keeps_spike),
        cmocka_unit_test(test_reduce_small_copied),
        cmocka_unit_test(test_memcsv),
        cmocka_unit_test(test_memcsv_chunks),
        cmocka_unit_test(test_reduce_stream),
        cmocka_unit_test(test_logidx),
        cmocka_unit_test(test_html_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
