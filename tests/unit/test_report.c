/* Unit tests for the report's pure parts: lib/reduce keeps extremes,
 * lib/memcsv reads memlog's CSV, render/html escapes every hostile byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/memcsv.h"
#include "lib/reduce.h"
#include "render/html.h"

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
    assert_int_equal(memcsv_parse(&m, mem_csv, strlen(mem_csv), &err), 0);
    assert_int_equal(m.not_sampled, 0);
    assert_int_equal(m.n_gpus, 2);
    assert_int_equal(m.gpus[0].index, 0);
    assert_int_equal(m.gpus[0].n, 2); /* the cut last row is not a sample */
    assert_int_equal(m.bad_rows, 3);
    assert_int_equal(m.gpus[0].total, 24576LL << 20);
    assert_int_equal(m.gpus[0].samples[0].used, 512LL << 20);
    assert_int_equal(m.gpus[0].samples[0].tree, -1);
    assert_true(m.gpus[0].samples[1].elapsed_s == 0.5);
    assert_int_equal(m.gpus[0].samples[1].tree, 6488LL << 20);
    assert_int_equal(m.gpus[1].samples[0].used, -1);
    memcsv_release(&m);
    const char *none = "# GPU memory not sampled: no NVML\n";
    assert_int_equal(memcsv_parse(&m, none, strlen(none), &err), 0);
    assert_int_equal(m.not_sampled, 1);
    assert_int_equal(m.n_gpus, 0);
    memcsv_release(&m);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_keeps_spike),
        cmocka_unit_test(test_reduce_small_copied),
        cmocka_unit_test(test_memcsv),
        cmocka_unit_test(test_html_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
